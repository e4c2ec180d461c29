-- The marketplace: favourites per user, module configuration per organization, and buying an
-- upgrade of a module that is not active yet charges the module's base cost too
-- (docs/product.md, Marketplace and modules; docs/data-model.md, Functions).

-- ---------------------------------------------------------------------------------------------
-- Favourites: a member marks modules of the catalogue, in one organization, for themselves.
-- ---------------------------------------------------------------------------------------------

create table public.module_favorites (
  organization_id uuid not null,
  user_id uuid not null,
  module_id uuid not null references public.modules (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id, module_id),
  -- Leaving the organization takes one's favourites along.
  foreign key (organization_id, user_id)
    references public.organization_members (organization_id, user_id) on delete cascade
);
create index module_favorites_user_idx on public.module_favorites (user_id, organization_id);
create index module_favorites_module_idx on public.module_favorites (module_id);

alter table public.module_favorites enable row level security;
revoke all on public.module_favorites from public, anon, authenticated;
grant select, delete on public.module_favorites to authenticated;
grant insert (organization_id, user_id, module_id) on public.module_favorites to authenticated;

create policy "module_favorites: members read their own favourites"
  on public.module_favorites for select to authenticated
  using (organization_id in (select public.my_organization_ids()) and user_id = (select auth.uid()));
create policy "module_favorites: members add their own favourites"
  on public.module_favorites for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()) and user_id = (select auth.uid()));
create policy "module_favorites: members remove their own favourites"
  on public.module_favorites for delete to authenticated
  using (organization_id in (select public.my_organization_ids()) and user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------------------------
-- Configuration of an activated module: who sees it, and whether it sends email notifications.
-- ---------------------------------------------------------------------------------------------

alter table public.organization_modules
  add column default_visibility text not null default 'any'
    check (default_visibility in ('any', 'manager', 'administrator', 'owner')),
  add column email_notifications boolean not null default true,
  add column settings_updated_at timestamptz;

-- Saves the configuration (the owner only; Reset passes the defaults).
create function public.update_module_settings(
  org_id uuid, mod_id uuid, visibility text, notifications boolean
) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_owner(update_module_settings.org_id);
  if update_module_settings.visibility is null
     or update_module_settings.visibility not in ('any', 'manager', 'administrator', 'owner')
     or update_module_settings.notifications is null then
    raise exception 'invalid_settings' using errcode = 'P0001';
  end if;
  update public.organization_modules om
  set default_visibility = update_module_settings.visibility,
      email_notifications = update_module_settings.notifications,
      settings_updated_at = now()
  where om.organization_id = update_module_settings.org_id and om.module_id = update_module_settings.mod_id;
  if not found then
    raise exception 'not_active' using errcode = 'P0001';
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Buying an upgrade of a module that is not active charges base_gear_cost + gear_cost together.
-- The organization's row is locked first, so the balance read here cannot change before the two
-- spends; the whole purchase is refused (insufficient_gears, detail {required, remaining}) when
-- the sum is not there, and nothing is left behind.
-- ---------------------------------------------------------------------------------------------

create or replace function public.purchase_upgrade(org_id uuid, upgrade_id uuid) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  upgrade record;
  base_cost integer;
  org_module_id uuid;
  have integer;
  new_id uuid;
begin
  perform private.require_owner(purchase_upgrade.org_id);
  select o.gears_remaining into have
  from public.organizations o where o.id = purchase_upgrade.org_id for no key update;
  select u.id, u.module_id, u.gear_cost, u.dependencies into upgrade
  from public.module_upgrades u where u.id = purchase_upgrade.upgrade_id;
  if not found then
    raise exception 'upgrade_not_found' using errcode = 'P0001';
  end if;
  if exists (
    select 1 from public.organization_module_upgrades omu
    where omu.organization_id = purchase_upgrade.org_id and omu.upgrade_id = purchase_upgrade.upgrade_id
  ) then
    raise exception 'already_active' using errcode = 'P0001';
  end if;
  if exists (
    select 1 from unnest(upgrade.dependencies) dep
    where not exists (
      select 1 from public.organization_module_upgrades omu
      where omu.organization_id = purchase_upgrade.org_id and omu.upgrade_id = dep
    )
  ) then
    raise exception 'missing_dependency' using errcode = 'P0001';
  end if;
  select om.id into org_module_id from public.organization_modules om
  where om.organization_id = purchase_upgrade.org_id and om.module_id = upgrade.module_id;
  base_cost := 0;
  if org_module_id is null then
    select m.base_gear_cost into base_cost from public.modules m where m.id = upgrade.module_id;
  end if;
  if have < base_cost + upgrade.gear_cost then
    raise exception 'insufficient_gears' using errcode = 'P0001',
      detail = json_build_object('required', base_cost + upgrade.gear_cost, 'remaining', have)::text;
  end if;
  if org_module_id is null then
    insert into public.organization_modules (organization_id, module_id, status, activated_by)
    values (purchase_upgrade.org_id, upgrade.module_id, 'activated', (select auth.uid()))
    returning id into org_module_id;
    if base_cost > 0 then
      perform private.spend_gears(purchase_upgrade.org_id, base_cost, 'module_activation',
        (select auth.uid()), upgrade.module_id, null);
    end if;
  end if;
  insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id, purchased_by)
  values (purchase_upgrade.org_id, org_module_id, purchase_upgrade.upgrade_id, (select auth.uid()))
  returning id into new_id;
  if upgrade.gear_cost > 0 then
    perform private.spend_gears(purchase_upgrade.org_id, upgrade.gear_cost, 'upgrade_purchase',
      (select auth.uid()), upgrade.module_id, purchase_upgrade.upgrade_id);
  end if;
  return new_id;
end
$$;

revoke execute on function public.update_module_settings(uuid, uuid, text, boolean),
  public.purchase_upgrade(uuid, uuid) from public, anon, authenticated;
grant execute on function public.update_module_settings(uuid, uuid, text, boolean),
  public.purchase_upgrade(uuid, uuid) to authenticated;
