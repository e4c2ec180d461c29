-- The functions that keep gears, modules, sync status, organization deletion and bookings
-- correct: security definer with search_path pinned, the caller taken from auth.uid() and
-- checked inside, execute granted only to the role that calls it. Each refusal raises a stable
-- code (SQLSTATE P0001, the code as the message) that the server maps to a translated message.

-- ---------------------------------------------------------------------------------------------
-- Internal helpers (schema private: not exposed, no role but the owner may call them)
-- ---------------------------------------------------------------------------------------------

create function private.require_member(org uuid) returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = 'P0001';
  end if;
  if not exists (
    select 1 from public.organization_members m
    where m.organization_id = org and m.user_id = (select auth.uid())
  ) then
    raise exception 'not_member' using errcode = 'P0001';
  end if;
end
$$;

create function private.require_owner(org uuid) returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = 'P0001';
  end if;
  if not exists (
    select 1 from public.organization_members m
    where m.organization_id = org and m.user_id = (select auth.uid()) and m.role = 'owner'
  ) then
    raise exception 'not_owner' using errcode = 'P0001';
  end if;
end
$$;

-- Adds gears (a grant): both gears_owned and gears_remaining grow, with its ledger row.
create function private.grant_gears(org_id uuid, amount integer, reason public.gear_reason, actor_id uuid default null)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  remaining integer;
begin
  if grant_gears.amount is null or grant_gears.amount <= 0 then
    raise exception 'invalid_amount' using errcode = 'P0001';
  end if;
  if grant_gears.reason not in ('initial_grant', 'grant') then
    raise exception 'invalid_reason' using errcode = 'P0001';
  end if;
  update public.organizations o
  set gears_owned = o.gears_owned + grant_gears.amount,
      gears_remaining = o.gears_remaining + grant_gears.amount
  where o.id = grant_gears.org_id
  returning o.gears_remaining into remaining;
  if not found then
    raise exception 'organization_not_found' using errcode = 'P0001';
  end if;
  insert into public.gear_ledger (organization_id, delta, balance_after, reason, actor_id)
  values (grant_gears.org_id, grant_gears.amount, remaining, grant_gears.reason, grant_gears.actor_id);
  return remaining;
end
$$;

-- Spends gears atomically: one conditional update (no read-then-write, so no lost update under
-- concurrency) and its ledger row. Returns the new balance.
create function private.spend_gears(
  org_id uuid, amount integer, reason public.gear_reason,
  actor_id uuid default null, module_id uuid default null, upgrade_id uuid default null
) returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  remaining integer;
  have integer;
begin
  if spend_gears.amount is null or spend_gears.amount <= 0 then
    raise exception 'invalid_amount' using errcode = 'P0001';
  end if;
  if spend_gears.reason not in ('module_activation', 'upgrade_purchase', 'adjustment') then
    raise exception 'invalid_reason' using errcode = 'P0001';
  end if;
  update public.organizations o
  set gears_remaining = o.gears_remaining - spend_gears.amount
  where o.id = spend_gears.org_id and o.gears_remaining >= spend_gears.amount
  returning o.gears_remaining into remaining;
  if not found then
    select o.gears_remaining into have from public.organizations o where o.id = spend_gears.org_id;
    if not found then
      raise exception 'organization_not_found' using errcode = 'P0001';
    end if;
    raise exception 'insufficient_gears' using errcode = 'P0001',
      detail = json_build_object('required', spend_gears.amount, 'remaining', have)::text;
  end if;
  insert into public.gear_ledger (organization_id, delta, balance_after, reason, module_id, upgrade_id, actor_id)
  values (spend_gears.org_id, -spend_gears.amount, remaining, spend_gears.reason,
    spend_gears.module_id, spend_gears.upgrade_id, spend_gears.actor_id);
  return remaining;
end
$$;

-- The foundation's organization creation, now with the starting gears as a ledger row.
create or replace function private.create_organization(owner_id uuid, org_name text) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  base text := btrim(private.slugify(org_name), '-');
  candidate text := base;
  org_id uuid;
  starting_gears constant integer := 15000; -- the preselected Professional plan's allowance
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
  return org_id;
end
$$;

revoke execute on all functions in schema private from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Modules and upgrades (owners only)
-- ---------------------------------------------------------------------------------------------

-- Activates a module for the organization and spends its base_gear_cost, in one transaction.
create function public.activate_module(org_id uuid, mod_id uuid) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  cost integer;
  new_id uuid;
begin
  perform private.require_owner(org_id);
  -- One module or upgrade change at a time per organization.
  perform 1 from public.organizations o where o.id = activate_module.org_id for no key update;
  select m.base_gear_cost into cost from public.modules m where m.id = mod_id;
  if not found then
    raise exception 'module_not_found' using errcode = 'P0001';
  end if;
  insert into public.organization_modules (organization_id, module_id, status, activated_by)
  values (org_id, mod_id, 'activated', (select auth.uid()))
  on conflict (organization_id, module_id) do nothing
  returning id into new_id;
  if new_id is null then
    raise exception 'already_active' using errcode = 'P0001';
  end if;
  if cost > 0 then
    perform private.spend_gears(org_id, cost, 'module_activation', (select auth.uid()), mod_id, null);
  end if;
  return new_id;
end
$$;

-- Deactivates a module; its upgrades (and their integration connections) go with it. No refund.
create function public.deactivate_module(org_id uuid, mod_id uuid) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_owner(org_id);
  perform 1 from public.organizations o where o.id = deactivate_module.org_id for no key update;
  delete from public.organization_modules om
  where om.organization_id = deactivate_module.org_id and om.module_id = deactivate_module.mod_id;
  if not found then
    raise exception 'not_active' using errcode = 'P0001';
  end if;
end
$$;

-- Buys an upgrade: its dependencies must be active; the module's row is created when missing
-- (SPEC §7.5: without charging the module's base cost); gear_cost is spent.
create function public.purchase_upgrade(org_id uuid, upgrade_id uuid) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  upgrade record;
  org_module_id uuid;
  new_id uuid;
begin
  perform private.require_owner(purchase_upgrade.org_id);
  perform 1 from public.organizations o where o.id = purchase_upgrade.org_id for no key update;
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
  insert into public.organization_modules (organization_id, module_id, status, activated_by)
  values (purchase_upgrade.org_id, upgrade.module_id, 'activated', (select auth.uid()))
  on conflict (organization_id, module_id) do nothing;
  select om.id into org_module_id from public.organization_modules om
  where om.organization_id = purchase_upgrade.org_id and om.module_id = upgrade.module_id;
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

-- Removes an active upgrade (and its integration connections). Refused while another active
-- upgrade depends on it. Returns the removed organization_module_upgrades id. No refund.
create function public.remove_upgrade(org_id uuid, upgrade_id uuid) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  removed uuid;
begin
  perform private.require_owner(remove_upgrade.org_id);
  perform 1 from public.organizations o where o.id = remove_upgrade.org_id for no key update;
  if exists (
    select 1 from public.organization_module_upgrades omu
    join public.module_upgrades u on u.id = omu.upgrade_id
    where omu.organization_id = remove_upgrade.org_id and remove_upgrade.upgrade_id = any (u.dependencies)
  ) then
    raise exception 'required_by_active_upgrade' using errcode = 'P0001';
  end if;
  delete from public.organization_module_upgrades omu
  where omu.organization_id = remove_upgrade.org_id and omu.upgrade_id = remove_upgrade.upgrade_id
  returning omu.id into removed;
  if removed is null then
    raise exception 'no_active_upgrade' using errcode = 'P0001';
  end if;
  return removed;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Sync status (members)
-- ---------------------------------------------------------------------------------------------

create function public.get_or_create_sync_status(org_id uuid, mod_id uuid)
returns public.module_sync_status
language plpgsql security definer set search_path = ''
as $$
declare
  result public.module_sync_status;
begin
  perform private.require_member(org_id);
  if not exists (select 1 from public.modules m where m.id = mod_id) then
    raise exception 'module_not_found' using errcode = 'P0001';
  end if;
  insert into public.module_sync_status (organization_id, module_id, created_by)
  values (org_id, mod_id, (select auth.uid()))
  on conflict (organization_id, module_id) do nothing;
  select * into result from public.module_sync_status s
  where s.organization_id = get_or_create_sync_status.org_id and s.module_id = get_or_create_sync_status.mod_id;
  return result;
end
$$;

-- A sync starts (pending) only from idle or error; ending it (idle, or error with a message)
-- is always allowed. The row is created when missing.
create function public.update_sync_status(org_id uuid, mod_id uuid, new_status public.sync_status, error_msg text default null)
returns public.module_sync_status
language plpgsql security definer set search_path = ''
as $$
declare
  existing public.module_sync_status;
  result public.module_sync_status;
begin
  perform private.require_member(org_id);
  if new_status is null then
    raise exception 'invalid_status' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.modules m where m.id = mod_id) then
    raise exception 'module_not_found' using errcode = 'P0001';
  end if;
  insert into public.module_sync_status (organization_id, module_id, created_by)
  values (org_id, mod_id, (select auth.uid()))
  on conflict (organization_id, module_id) do nothing;
  select * into existing from public.module_sync_status s
  where s.organization_id = update_sync_status.org_id and s.module_id = update_sync_status.mod_id
  for update;
  if new_status = 'pending' and existing.sync_status = 'pending' then
    raise exception 'sync_in_progress' using errcode = 'P0001';
  end if;
  update public.module_sync_status s
  set sync_status = new_status,
      error_message = case when new_status = 'error'
        then left(coalesce(nullif(btrim(error_msg), ''), 'unknown error'), 2000) end,
      last_synced_at = case when existing.sync_status = 'pending' and new_status = 'idle'
        then now() else s.last_synced_at end
  where s.id = existing.id
  returning * into result;
  return result;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Organization deletion (owners only, with the exact phrase)
-- ---------------------------------------------------------------------------------------------

create function public.delete_organization_and_data(org_id uuid, confirmation_text text) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_owner(org_id);
  if confirmation_text is distinct from 'DELETE MY ORGANIZATION' then
    raise exception 'wrong_confirmation' using errcode = 'P0001';
  end if;
  -- Transactions first, in one statement, so that deleting the clients does not update them
  -- one client at a time; everything else goes by the cascade from the organization.
  delete from public.transactions t where t.organization_id = delete_organization_and_data.org_id;
  delete from public.organizations o where o.id = delete_organization_and_data.org_id;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Public booking pages (anon): narrow reads and the two writes
-- ---------------------------------------------------------------------------------------------

create function public.get_public_organization(org_slug text)
returns table (id uuid, slug text, name text, logo_url text, brand_colors jsonb)
language sql stable security definer set search_path = ''
as $$
  select o.id, o.slug, o.name, o.logo_url, o.brand_colors
  from public.organizations o where o.slug = org_slug
$$;

create function public.get_public_services(org_id uuid)
returns table (id uuid, name text, description text, price numeric, duration_minutes integer, color text)
language sql stable security definer set search_path = ''
as $$
  select s.id, s.name, s.description, s.price, s.duration_minutes, s.color
  from public.booking_services s
  where s.organization_id = org_id and s.is_active
  order by s.name, s.id
$$;

create function public.get_public_providers(org_id uuid)
returns table (id uuid, display_name text, bio text, avatar_url text, business_hours jsonb)
language sql stable security definer set search_path = ''
as $$
  select p.id, p.display_name, p.bio, p.avatar_url, p.business_hours
  from public.booking_providers p
  where p.organization_id = org_id and p.is_active
  order by p.display_name, p.id
$$;

create function public.get_public_booking_settings(org_id uuid)
returns table (min_advance_hours integer, max_advance_days integer, buffer_minutes integer,
  auto_confirm boolean, allow_guest_booking boolean, require_phone boolean,
  cancellation_hours integer, timezone text, business_hours jsonb)
language sql stable security definer set search_path = ''
as $$
  select s.min_advance_hours, s.max_advance_days, s.buffer_minutes, s.auto_confirm,
    s.allow_guest_booking, s.require_phone, s.cancellation_hours, s.timezone, s.business_hours
  from public.booking_settings s where s.organization_id = org_id
$$;

-- The time each provider is taken between two local dates (inclusive) in the organization's
-- timezone: from an appointment's start to its end plus the buffer in force. A candidate slot
-- [start, end + current buffer) is free when it overlaps none of these. At most 62 days.
create function public.get_public_busy_ranges(org_id uuid, from_date date, to_date date)
returns table (provider_id uuid, busy_from timestamptz, busy_until timestamptz)
language plpgsql stable security definer set search_path = ''
as $$
declare
  tz text;
begin
  if from_date is null or to_date is null or to_date < from_date or to_date - from_date > 62 then
    raise exception 'invalid_range' using errcode = 'P0001';
  end if;
  select s.timezone into tz from public.booking_settings s where s.organization_id = get_public_busy_ranges.org_id;
  if tz is null then
    return;
  end if;
  return query
    select a.provider_id, a.starts_at, a.buffer_ends_at
    from public.booking_appointments a
    join public.booking_providers p on p.id = a.provider_id and p.is_active
    where a.organization_id = get_public_busy_ranges.org_id
      and a.status in ('pending', 'confirmed')
      and a.starts_at < ((get_public_busy_ranges.to_date + 1)::timestamp at time zone tz)
      and a.buffer_ends_at > (get_public_busy_ranges.from_date::timestamp at time zone tz)
    order by a.provider_id, a.starts_at;
end
$$;

-- Books an appointment for a visitor. Everything is re-validated here: the service and
-- provider are active and of this organization, the start is inside the provider's (or the
-- organization's) enabled hours in the organization's timezone, at least min_advance_hours and
-- at most max_advance_days ahead; the end and the price come from the service; the buffer,
-- the local date and times are derived by the table's trigger; the exclusion constraint
-- refuses an overlap (slot_taken), also under concurrency. Returns the manage token once.
create function public.create_booking(
  p_organization_id uuid, p_service_id uuid, p_provider_id uuid, p_starts_at timestamptz,
  p_guest_name text, p_guest_email text, p_guest_phone text default null, p_notes text default null
) returns table (id uuid, manage_token text, status public.appointment_status, appointment_date date,
  start_time time, end_time time, starts_at timestamptz, ends_at timestamptz, total_price numeric,
  timezone text)
language plpgsql security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  settings public.booking_settings;
  service record;
  provider record;
  guest_name text := btrim(coalesce(p_guest_name, ''));
  guest_email text := btrim(coalesce(p_guest_email, ''));
  guest_phone text := nullif(btrim(coalesce(p_guest_phone, '')), '');
  notes text := nullif(btrim(coalesce(p_notes, '')), '');
  end_at timestamptz;
  local_start timestamp;
  local_end timestamp;
  hours jsonb;
  token text;
  booked public.booking_appointments;
begin
  select * into settings from public.booking_settings s where s.organization_id = p_organization_id;
  if not found then
    raise exception 'organization_not_found' using errcode = 'P0001';
  end if;
  select s.id, s.price, s.duration_minutes into service
  from public.booking_services s
  where s.id = p_service_id and s.organization_id = p_organization_id and s.is_active;
  if not found then
    raise exception 'service_unavailable' using errcode = 'P0001';
  end if;
  -- The per-provider lock: bookings of one provider queue here.
  select p.id, p.business_hours into provider
  from public.booking_providers p
  where p.id = p_provider_id and p.organization_id = p_organization_id and p.is_active
  for no key update;
  if not found then
    raise exception 'provider_unavailable' using errcode = 'P0001';
  end if;

  if char_length(guest_name) not between 1 and 120 then
    raise exception 'invalid_guest_name' using errcode = 'P0001';
  end if;
  if char_length(guest_email) > 254 or guest_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'invalid_guest_email' using errcode = 'P0001';
  end if;
  if settings.require_phone and guest_phone is null then
    raise exception 'phone_required' using errcode = 'P0001';
  end if;
  if char_length(guest_phone) > 40 then
    raise exception 'invalid_guest_phone' using errcode = 'P0001';
  end if;
  if char_length(notes) > 2000 then
    raise exception 'invalid_notes' using errcode = 'P0001';
  end if;

  if p_starts_at is null then
    raise exception 'invalid_start' using errcode = 'P0001';
  end if;
  if p_starts_at < now() + make_interval(hours => settings.min_advance_hours) then
    raise exception 'too_soon' using errcode = 'P0001';
  end if;
  if p_starts_at > now() + make_interval(days => settings.max_advance_days) then
    raise exception 'too_far_ahead' using errcode = 'P0001';
  end if;
  end_at := p_starts_at + make_interval(mins => service.duration_minutes);
  local_start := p_starts_at at time zone settings.timezone;
  local_end := end_at at time zone settings.timezone;
  hours := coalesce(provider.business_hours, settings.business_hours)
    -> (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])[extract(isodow from local_start)::int];
  if hours is null or not coalesce((hours ->> 'enabled')::boolean, false)
     or local_start < local_start::date + (hours ->> 'start')::time
     or local_end > local_start::date + (hours ->> 'end')::interval then
    raise exception 'outside_business_hours' using errcode = 'P0001';
  end if;

  token := replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
  begin
    insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at,
      ends_at, status, guest_name, guest_email, guest_phone, notes, total_price, manage_token_hash)
    values (p_organization_id, p_service_id, p_provider_id, p_starts_at, end_at,
      case when settings.auto_confirm then 'confirmed'::public.appointment_status else 'pending' end,
      guest_name, guest_email, guest_phone, notes, service.price,
      encode(sha256(convert_to(token, 'UTF8')), 'hex'))
    returning * into booked;
  exception when exclusion_violation then
    raise exception 'slot_taken' using errcode = 'P0001';
  end;
  return query select booked.id, token, booked.status, booked.appointment_date, booked.start_time,
    booked.end_time, booked.starts_at, booked.ends_at, booked.total_price, settings.timezone;
end
$$;

-- A booking by its manage token (the guest's confirmation and cancellation page).
create function public.get_public_booking(token text)
returns table (id uuid, status public.appointment_status, starts_at timestamptz, ends_at timestamptz,
  appointment_date date, start_time time, end_time time, timezone text, service_name text,
  duration_minutes integer, provider_name text, guest_name text, guest_email text,
  guest_phone text, notes text, total_price numeric, organization_name text,
  organization_slug text, cancellable_until timestamptz)
language sql stable security definer set search_path = ''
as $$
  select a.id, a.status, a.starts_at, a.ends_at, a.appointment_date, a.start_time, a.end_time,
    s.timezone, svc.name, svc.duration_minutes, p.display_name, a.guest_name, a.guest_email,
    a.guest_phone, a.notes, a.total_price, o.name, o.slug,
    a.starts_at - make_interval(hours => s.cancellation_hours)
  from public.booking_appointments a
  join public.organizations o on o.id = a.organization_id
  join public.booking_settings s on s.organization_id = a.organization_id
  left join public.booking_services svc on svc.id = a.service_id
  left join public.booking_providers p on p.id = a.provider_id
  where token ~ '^[0-9a-f]{64}$'
    and a.manage_token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex')
$$;

-- Cancels a booking by its manage token, unless it starts within cancellation_hours.
create function public.cancel_booking(token text)
returns table (id uuid, status public.appointment_status)
language plpgsql security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  booking record;
begin
  if token is null or token !~ '^[0-9a-f]{64}$' then
    raise exception 'booking_not_found' using errcode = 'P0001';
  end if;
  select a.id, a.status, a.starts_at, s.cancellation_hours into booking
  from public.booking_appointments a
  join public.booking_settings s on s.organization_id = a.organization_id
  where a.manage_token_hash = encode(sha256(convert_to(cancel_booking.token, 'UTF8')), 'hex')
  for update of a;
  if not found then
    raise exception 'booking_not_found' using errcode = 'P0001';
  end if;
  if booking.status = 'cancelled' then
    raise exception 'already_cancelled' using errcode = 'P0001';
  end if;
  if booking.status not in ('pending', 'confirmed') then
    raise exception 'not_cancellable' using errcode = 'P0001';
  end if;
  if booking.starts_at < now() + make_interval(hours => booking.cancellation_hours) then
    raise exception 'too_late_to_cancel' using errcode = 'P0001';
  end if;
  update public.booking_appointments a set status = 'cancelled' where a.id = booking.id;
  return query select booking.id, 'cancelled'::public.appointment_status;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Execute: revoked from everyone, granted to the one role that calls each function.
-- ---------------------------------------------------------------------------------------------

revoke execute on function
  public.activate_module(uuid, uuid), public.deactivate_module(uuid, uuid),
  public.purchase_upgrade(uuid, uuid), public.remove_upgrade(uuid, uuid),
  public.get_or_create_sync_status(uuid, uuid),
  public.update_sync_status(uuid, uuid, public.sync_status, text),
  public.delete_organization_and_data(uuid, text),
  public.get_public_organization(text), public.get_public_services(uuid),
  public.get_public_providers(uuid), public.get_public_booking_settings(uuid),
  public.get_public_busy_ranges(uuid, date, date),
  public.create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text),
  public.get_public_booking(text), public.cancel_booking(text)
from public, anon, authenticated;

grant execute on function
  public.activate_module(uuid, uuid), public.deactivate_module(uuid, uuid),
  public.purchase_upgrade(uuid, uuid), public.remove_upgrade(uuid, uuid),
  public.get_or_create_sync_status(uuid, uuid),
  public.update_sync_status(uuid, uuid, public.sync_status, text),
  public.delete_organization_and_data(uuid, text)
to authenticated;

grant execute on function
  public.get_public_organization(text), public.get_public_services(uuid),
  public.get_public_providers(uuid), public.get_public_booking_settings(uuid),
  public.get_public_busy_ranges(uuid, date, date),
  public.create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text),
  public.get_public_booking(text), public.cancel_booking(text)
to anon;
