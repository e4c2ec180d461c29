-- The catalogue sells only what works (docs/decisions/039-what-the-catalogue-sells.md;
-- docs/product.md, Modules and Plans):
--  * each module and upgrade says whether it is built (`available`); a module of the free base is
--    `included`: free, active for every organization, never sold nor deactivated;
--  * activate_module and purchase_upgrade refuse what is not available (`not_available`) before
--    anything is written or spent; deactivate_module refuses an included module (`included_module`);
--  * every organization, existing and new, has the included modules active;
--  * what an organization paid for an item that is not sold (coming soon, or now included) comes
--    back as a refund row of the ledger, once (`refund_of` names the spend it gives back);
--  * an organization has a plan (`plan`): what it has, the place billing will write later.
-- supabase/seed.sql sets the same `available` and `included` on every start (a fresh database gets
-- its catalogue there, after this migration); app/lib/modules.ts holds the same figures and
-- tests/db/catalogue-registry.test.ts fails when the two disagree.

-- ---------------------------------------------------------------------------------------------
-- Availability of the catalogue
-- ---------------------------------------------------------------------------------------------

alter table public.modules
  add column available boolean not null default false,
  add column included boolean not null default false;
alter table public.module_upgrades
  add column available boolean not null default false;

-- The rows that exist already (a database migrated before): the same values as supabase/seed.sql.
update public.modules m set
  available = m.id in ('b0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000002',
    'b0000000-0000-4000-8000-000000000003', 'b0000000-0000-4000-8000-000000000004'),
  included = m.id in ('b0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000002',
    'b0000000-0000-4000-8000-000000000004'),
  base_gear_cost = case when m.id in ('b0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000004')
    then 0 else m.base_gear_cost end;
update public.module_upgrades u set available = u.id in ('c0000000-0000-4000-8000-000000000001');

-- What every organization has is free and cannot be sold apart from it.
alter table public.modules
  add constraint modules_included_is_free check (not included or (available and base_gear_cost = 0));

-- ---------------------------------------------------------------------------------------------
-- The plan of an organization: what it has today ('free': its 15,000 starting gears, nothing
-- charged). Only the system writes it (no column grant); billing will set it later.
-- ---------------------------------------------------------------------------------------------

alter table public.organizations
  add column plan text not null default 'free' check (plan in ('free', 'starter', 'professional', 'enterprise'));

-- ---------------------------------------------------------------------------------------------
-- Refunds in the ledger: an adjustment that gives back one spend, at most once.
-- ---------------------------------------------------------------------------------------------

alter table public.gear_ledger
  add column refund_of bigint references public.gear_ledger (id),
  add constraint gear_ledger_refund_gives_back check (refund_of is null or (reason = 'adjustment' and delta > 0));
create unique index gear_ledger_refund_of_idx on public.gear_ledger (refund_of) where refund_of is not null;

create or replace function private.gear_ledger_append_only() returns trigger
language plpgsql set search_path = ''
as $$
begin
  -- Only the "who" may be cleared, when that user is deleted.
  if (new.id, new.organization_id, new.delta, new.balance_after, new.reason, new.module_id,
      new.upgrade_id, new.created_at, new.refund_of)
     is distinct from
     (old.id, old.organization_id, old.delta, old.balance_after, old.reason, old.module_id,
      old.upgrade_id, old.created_at, old.refund_of)
     or new.actor_id is not null and new.actor_id is distinct from old.actor_id then
    raise exception 'gear_ledger_append_only' using errcode = 'P0001';
  end if;
  return new;
end
$$;

-- Gives back every spend on an item the catalogue does not sell (a module activation of a module
-- that is coming soon or included, an upgrade purchase of an upgrade that is coming soon) that
-- was not given back yet: one ledger row each, naming the spend (`refund_of`, unique), with the
-- balance after it. Idempotent: a second run finds nothing. Returns how many spends it refunded.
create function private.refund_unsold_purchases() returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  spend record;
  remaining integer;
  refunded integer := 0;
begin
  for spend in
    select l.id, l.organization_id, l.delta, l.module_id, l.upgrade_id
    from public.gear_ledger l
    left join public.modules m on m.id = l.module_id
    left join public.module_upgrades u on u.id = l.upgrade_id
    where l.delta < 0
      and (
        (l.reason = 'module_activation' and (not m.available or m.included))
        or (l.reason = 'upgrade_purchase' and not u.available)
      )
      and not exists (select 1 from public.gear_ledger r where r.refund_of = l.id)
    order by l.organization_id, l.id
  loop
    update public.organizations o set gears_remaining = o.gears_remaining - spend.delta
    where o.id = spend.organization_id
    returning o.gears_remaining into remaining;
    insert into public.gear_ledger (organization_id, delta, balance_after, reason, module_id, upgrade_id, refund_of)
    values (spend.organization_id, -spend.delta, remaining, 'adjustment', spend.module_id, spend.upgrade_id, spend.id);
    refunded := refunded + 1;
  end loop;
  return refunded;
end
$$;

-- Activates the included modules of an organization that lacks them (idempotent).
create function private.activate_included_modules(org_id uuid, actor uuid default null) returns void
language sql security definer set search_path = ''
as $$
  insert into public.organization_modules (organization_id, module_id, status, activated_by)
  select activate_included_modules.org_id, m.id, 'activated', activate_included_modules.actor
  from public.modules m where m.included
  on conflict (organization_id, module_id) do nothing;
$$;

-- ---------------------------------------------------------------------------------------------
-- New organizations start with the included modules.
-- ---------------------------------------------------------------------------------------------

create or replace function private.create_organization(owner_id uuid, org_name text) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  base text := btrim(private.slugify(org_name), '-');
  candidate text := base;
  org_id uuid;
  starting_gears constant integer := 15000; -- the free plan's starting gears, given once
begin
  loop
    begin
      insert into public.organizations (slug, name, gears_owned, gears_remaining)
      values (candidate, btrim(org_name), 0, 0)
      returning id into org_id;
      exit;
    exception when unique_violation then
      candidate := base || '-' || substr(md5(random()::text), 1, 5);
    end;
  end loop;
  insert into public.booking_settings (organization_id) values (org_id);
  insert into public.organization_members (organization_id, user_id, role)
  values (org_id, owner_id, 'owner');
  perform private.grant_gears(org_id, starting_gears, 'initial_grant', owner_id);
  perform private.activate_included_modules(org_id, owner_id);
  return org_id;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- The owner's functions refuse what the catalogue does not sell, before anything is spent.
-- ---------------------------------------------------------------------------------------------

-- Activates a module for the organization and spends its base_gear_cost, in one transaction;
-- a module that is not available (coming soon) is refused with `not_available`.
create or replace function public.activate_module(org_id uuid, mod_id uuid) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  module record;
  new_id uuid;
begin
  perform private.require_owner(org_id);
  -- One module or upgrade change at a time per organization.
  perform 1 from public.organizations o where o.id = activate_module.org_id for no key update;
  select m.base_gear_cost, m.available into module from public.modules m where m.id = mod_id;
  if not found then
    raise exception 'module_not_found' using errcode = 'P0001';
  end if;
  if not module.available then
    raise exception 'not_available' using errcode = 'P0001';
  end if;
  insert into public.organization_modules (organization_id, module_id, status, activated_by)
  values (org_id, mod_id, 'activated', (select auth.uid()))
  on conflict (organization_id, module_id) do nothing
  returning id into new_id;
  if new_id is null then
    raise exception 'already_active' using errcode = 'P0001';
  end if;
  if module.base_gear_cost > 0 then
    perform private.spend_gears(org_id, module.base_gear_cost, 'module_activation', (select auth.uid()), mod_id, null);
  end if;
  return new_id;
end
$$;

-- Deactivates a module; its upgrades (and their integration connections) go with it. No refund.
-- An included module is part of what every organization has: refused (`included_module`).
create or replace function public.deactivate_module(org_id uuid, mod_id uuid) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_owner(org_id);
  perform 1 from public.organizations o where o.id = deactivate_module.org_id for no key update;
  if exists (select 1 from public.modules m where m.id = deactivate_module.mod_id and m.included) then
    raise exception 'included_module' using errcode = 'P0001';
  end if;
  delete from public.organization_modules om
  where om.organization_id = deactivate_module.org_id and om.module_id = deactivate_module.mod_id;
  if not found then
    raise exception 'not_active' using errcode = 'P0001';
  end if;
end
$$;

-- Buys an upgrade (docs/decisions/012-upgrade-buys-its-module.md): when its module is not active,
-- base_gear_cost + gear_cost together. An upgrade that is not available, or whose module is not,
-- is refused with `not_available` before anything is written.
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
  select u.id, u.module_id, u.gear_cost, u.dependencies, u.available and m.available as available into upgrade
  from public.module_upgrades u join public.modules m on m.id = u.module_id
  where u.id = purchase_upgrade.upgrade_id;
  if not found then
    raise exception 'upgrade_not_found' using errcode = 'P0001';
  end if;
  if not upgrade.available then
    raise exception 'not_available' using errcode = 'P0001';
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

revoke execute on all functions in schema private from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Existing organizations: the included modules, and their gears back for what is not sold.
-- ---------------------------------------------------------------------------------------------

select private.activate_included_modules(o.id) from public.organizations o;
select private.refund_unsold_purchases();
