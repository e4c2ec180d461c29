-- Issue 53, item 3: no organization works a few hours off its owner's clock without knowing it.
-- An organization made through Google sign-up (its user has no zone from the sign-up form), or
-- before sign-up asked for one, starts in UTC. `timezone_confirmed` says whether someone chose
-- the zone: set when the zone changes (sign-up, onboarding, Settings, the booking settings), when
-- the sign-up form or onboarding gave one (UTC included), and when the owner answers the shell's
-- question (docs/product.md, Time zones). Until then the shell asks the owner, once.

alter table public.booking_settings add column timezone_confirmed boolean not null default false;
grant update (timezone_confirmed) on public.booking_settings to authenticated;

-- A zone other than UTC was chosen by someone: only organizations still in UTC are asked.
update public.booking_settings set timezone_confirmed = true where timezone <> 'UTC';

create function private.booking_settings_zone_chosen() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.timezone is distinct from old.timezone then
    new.timezone_confirmed := true;
  end if;
  return new;
end
$$;
revoke execute on function private.booking_settings_zone_chosen() from public, anon, authenticated;

create trigger booking_settings_zone_chosen before update of timezone on public.booking_settings
  for each row execute function private.booking_settings_zone_chosen();

-- handle_new_user (20261206100000_zones_travel.sql), now confirming the zone the sign-up form
-- gave, UTC included; a user without one (Google sign-up) leaves the organization to be asked.
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  display_name text := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'full_name', '')), '');
  language text := new.raw_user_meta_data ->> 'preferred_language';
  zone text := left(new.raw_user_meta_data ->> 'timezone', 64);
  org_id uuid;
begin
  insert into public.profiles (user_id, full_name, email, preferred_language)
  values (
    new.id,
    left(display_name, 120),
    new.email,
    case when language in ('en', 'es', 'pt-BR') then language end
  );
  if coalesce((new.raw_app_meta_data ->> 'invited')::boolean, false) then
    return new;
  end if;
  org_id := private.create_organization(
    new.id,
    coalesce(display_name, split_part(coalesce(new.email, 'organization'), '@', 1))
  );
  if zone is not null then
    begin
      update public.booking_settings set timezone = zone, timezone_confirmed = true where organization_id = org_id;
    exception when check_violation then
      null; -- not one of the organizations' zones: UTC stays, and the owner is asked
    end;
  end if;
  return new;
end
$$;
revoke execute on function public.handle_new_user() from public, anon, authenticated;

-- The signed-in shell (20261203020000_verified_addresses.sql) gives each membership's zone's
-- confirmation too, for the shell's question: still one statement per request.
create or replace function private.signed_in_shell(
  session_token_hash text,
  verified_user uuid,
  chosen_organization uuid,
  idle_limit interval,
  touch_after interval
)
returns jsonb
language plpgsql volatile set search_path = ''
as $$
declare
  uid uuid := verified_user;
  user_email text;
  memberships jsonb;
  current_org uuid;
begin
  if session_token_hash is not null then
    select su.user_id, su.email into uid, user_email
    from private.session_user(session_token_hash, idle_limit, touch_after) su;
  end if;
  if uid is null then
    return null;
  end if;

  select coalesce(jsonb_agg(jsonb_build_object(
      'id', o.id, 'name', o.name, 'slug', o.slug, 'description', o.description, 'role', m.role,
      'gears_owned', o.gears_owned, 'gears_remaining', o.gears_remaining, 'timezone', coalesce(b.timezone, 'UTC'),
      'timezone_confirmed', coalesce(b.timezone_confirmed, true))
      order by m.joined_at, o.id), '[]')
  into memberships
  from public.organization_members m
  join public.organizations o on o.id = m.organization_id
  left join public.booking_settings b on b.organization_id = o.id
  where m.user_id = uid;

  select coalesce(
    (select m.organization_id from public.organization_members m where m.user_id = uid and m.organization_id = chosen_organization),
    (select m.organization_id from public.organization_members m where m.user_id = uid order by m.joined_at, m.organization_id limit 1))
  into current_org;

  return jsonb_build_object(
    'user_id', uid,
    'email', user_email,
    'email_verified', coalesce((select u.email_confirmed_at is not null from auth.users u where u.id = uid), false),
    'memberships', memberships,
    'organization_id', current_org,
    'profile', (select jsonb_build_object('full_name', p.full_name, 'avatar_url', p.avatar_url, 'preferred_language', p.preferred_language)
      from public.profiles p where p.user_id = uid),
    'modules', (select coalesce(jsonb_agg(jsonb_build_object(
        'moduleId', md.id, 'name', md.name, 'icon', md.icon, 'default_visibility', om.default_visibility)
        order by om.activated_at), '[]')
      from public.organization_modules om join public.modules md on md.id = om.module_id
      where om.organization_id = current_org));
end
$$;
revoke all on function private.signed_in_shell(text, uuid, uuid, interval, interval) from public, anon, authenticated;
