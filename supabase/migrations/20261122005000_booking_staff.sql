-- The staff side of booking (docs/product.md, Booking; docs/decisions/010-availability-rules.md):
--
-- 1. booking_date_overrides: days off and special hours on one local date, for the whole
--    organization (provider_id null) or one provider; members manage them (RLS).
-- 2. private.check_booking: the checks create_booking made, in one place, now also honouring
--    date overrides, and with the provider's hours narrowing the organization's (they used to
--    replace them: coalesce(provider, organization)), as the availability module does.
-- 3. create_booking (anon) calls it; staff_create_booking (members) calls it too, except that
--    staff may book inside the minimum notice (never in the past).

create table public.booking_date_overrides (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  provider_id uuid,
  date date not null,
  closed boolean not null default false,
  -- Wall-clock hours in the organization's timezone; end may be 24:00. Null on a closed row.
  start_time time,
  end_time time,
  note text check (char_length(note) <= 200),
  created_at timestamptz not null default now(),
  check (
    (closed and start_time is null and end_time is null)
    or (not closed and start_time is not null and end_time is not null and start_time < end_time)
  ),
  foreign key (organization_id, provider_id) references public.booking_providers (organization_id, id)
    on delete cascade
);
create index booking_date_overrides_org_date_idx on public.booking_date_overrides (organization_id, date);
create index booking_date_overrides_provider_idx on public.booking_date_overrides (organization_id, provider_id, date);

revoke all on public.booking_date_overrides from anon, authenticated;
alter table public.booking_date_overrides enable row level security;
grant select, delete on public.booking_date_overrides to authenticated;
grant insert (organization_id, provider_id, date, closed, start_time, end_time, note)
  on public.booking_date_overrides to authenticated;
grant update (provider_id, date, closed, start_time, end_time, note)
  on public.booking_date_overrides to authenticated;
create policy "booking_date_overrides: members read their organization's overrides"
  on public.booking_date_overrides for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "booking_date_overrides: members add overrides to their organization"
  on public.booking_date_overrides for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()));
create policy "booking_date_overrides: members update their organization's overrides"
  on public.booking_date_overrides for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "booking_date_overrides: members delete their organization's overrides"
  on public.booking_date_overrides for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- Whether [local_start, local_end) lies inside the hours that apply on local_start's date, for
-- the organization (p_provider_id null) or one provider: that date's override rows when there
-- are any (a closed row closes it), else the weekly hours (null weekly hours: no restriction of
-- the provider's own). Returns 'closed' for a day off by override, 'outside' outside the hours
-- (a weekday that is off included, as before), else null.
create function private.booking_hours_refusal(
  p_organization_id uuid, p_provider_id uuid, weekly jsonb, local_start timestamp, local_end timestamp
) returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  day date := local_start::date;
  hours jsonb;
  has_rows boolean;
begin
  select count(*) > 0 into has_rows from public.booking_date_overrides o
  where o.organization_id = p_organization_id and o.date = day
    and o.provider_id is not distinct from p_provider_id;
  if has_rows then
    if exists (select 1 from public.booking_date_overrides o
      where o.organization_id = p_organization_id and o.date = day
        and o.provider_id is not distinct from p_provider_id and o.closed) then
      return 'closed';
    end if;
    if exists (select 1 from public.booking_date_overrides o
      where o.organization_id = p_organization_id and o.date = day
        and o.provider_id is not distinct from p_provider_id
        and local_start >= day + o.start_time and local_end <= day + o.end_time::interval) then
      return null;
    end if;
    return 'outside';
  end if;
  if weekly is null then
    return null;
  end if;
  hours := weekly -> (array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])[extract(isodow from local_start)::int];
  if hours is null or not coalesce((hours ->> 'enabled')::boolean, false) then
    return 'outside';
  end if;
  if local_start < day + (hours ->> 'start')::time or local_end > day + (hours ->> 'end')::interval then
    return 'outside';
  end if;
  return null;
end
$$;

-- Every check of a booking before it is stored, shared by the public and the staff path. Takes
-- the per-provider lock (bookings of one provider queue here). Staff (p_staff) may book inside
-- the minimum notice, but not in the past.
create function private.check_booking(
  p_organization_id uuid, p_service_id uuid, p_provider_id uuid, p_starts_at timestamptz,
  p_guest_name text, p_guest_email text, p_guest_phone text, p_notes text, p_staff boolean,
  out o_end_at timestamptz, out o_price numeric, out o_settings public.booking_settings
)
language plpgsql security definer set search_path = ''
as $$
declare
  service record;
  provider record;
  guest_name text := btrim(coalesce(p_guest_name, ''));
  guest_email text := btrim(coalesce(p_guest_email, ''));
  guest_phone text := nullif(btrim(coalesce(p_guest_phone, '')), '');
  notes text := nullif(btrim(coalesce(p_notes, '')), '');
  local_start timestamp;
  local_end timestamp;
  refusal text;
  notice interval;
begin
  select * into o_settings from public.booking_settings s where s.organization_id = p_organization_id;
  if not found then
    raise exception 'organization_not_found' using errcode = 'P0001';
  end if;
  select s.id, s.price, s.duration_minutes into service
  from public.booking_services s
  where s.id = p_service_id and s.organization_id = p_organization_id and s.is_active;
  if not found then
    raise exception 'service_unavailable' using errcode = 'P0001';
  end if;
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
  if not public.is_valid_email(guest_email) then
    raise exception 'invalid_guest_email' using errcode = 'P0001';
  end if;
  if o_settings.require_phone and guest_phone is null then
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
  notice := make_interval(hours => o_settings.min_advance_hours);
  if p_staff then
    notice := interval '0';
  end if;
  if p_starts_at < now() + notice then
    raise exception 'too_soon' using errcode = 'P0001';
  end if;
  if p_starts_at > now() + make_interval(days => o_settings.max_advance_days) then
    raise exception 'too_far_ahead' using errcode = 'P0001';
  end if;
  o_end_at := p_starts_at + make_interval(mins => service.duration_minutes);
  o_price := service.price;
  local_start := p_starts_at at time zone o_settings.timezone;
  local_end := o_end_at at time zone o_settings.timezone;
  refusal := private.booking_hours_refusal(p_organization_id, null, o_settings.business_hours, local_start, local_end);
  if refusal = 'closed' then
    raise exception 'closed_that_day' using errcode = 'P0001';
  elsif refusal is not null then
    raise exception 'outside_business_hours' using errcode = 'P0001';
  end if;
  refusal := private.booking_hours_refusal(p_organization_id, p_provider_id, provider.business_hours, local_start, local_end);
  if refusal = 'closed' then
    raise exception 'provider_day_off' using errcode = 'P0001';
  elsif refusal is not null then
    raise exception 'outside_provider_hours' using errcode = 'P0001';
  end if;
end
$$;

-- create_booking as in 20261122002200_guest_booking_setting.sql, its checks now in
-- private.check_booking. New refusals: closed_that_day, provider_day_off, outside_provider_hours.
create or replace function public.create_booking(
  p_organization_id uuid, p_service_id uuid, p_provider_id uuid, p_starts_at timestamptz,
  p_guest_name text, p_guest_email text, p_guest_phone text default null, p_notes text default null
) returns table (id uuid, manage_token text, status public.appointment_status, appointment_date date,
  start_time time, end_time time, starts_at timestamptz, ends_at timestamptz, total_price numeric,
  timezone text)
language plpgsql security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  allowed boolean;
  checked record;
  token text;
  booked public.booking_appointments;
begin
  select s.allow_guest_booking into allowed from public.booking_settings s where s.organization_id = p_organization_id;
  if not found then
    raise exception 'organization_not_found' using errcode = 'P0001';
  end if;
  if not allowed then
    raise exception 'guest_booking_disabled' using errcode = 'P0001';
  end if;
  select * into checked from private.check_booking(p_organization_id, p_service_id, p_provider_id,
    p_starts_at, p_guest_name, p_guest_email, p_guest_phone, p_notes, false);

  token := replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
  begin
    insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at,
      ends_at, status, guest_name, guest_email, guest_phone, notes, total_price, manage_token_hash)
    values (p_organization_id, p_service_id, p_provider_id, p_starts_at, checked.o_end_at,
      case when (checked.o_settings).auto_confirm then 'confirmed'::public.appointment_status else 'pending' end,
      btrim(p_guest_name), btrim(p_guest_email), nullif(btrim(coalesce(p_guest_phone, '')), ''),
      nullif(btrim(coalesce(p_notes, '')), ''), checked.o_price,
      encode(sha256(convert_to(token, 'UTF8')), 'hex'))
    returning * into booked;
  exception when exclusion_violation then
    raise exception 'slot_taken' using errcode = 'P0001';
  end;
  return query select booked.id, token, booked.status, booked.appointment_date, booked.start_time,
    booked.end_time, booked.starts_at, booked.ends_at, booked.total_price, (checked.o_settings).timezone;
end
$$;

-- A member books an appointment from the staff calendar: the same checks as create_booking
-- (the public page's switch aside), inside the minimum notice allowed. Confirmed, since staff
-- made it; no manage token. Returns the new appointment's id.
create function public.staff_create_booking(
  p_organization_id uuid, p_service_id uuid, p_provider_id uuid, p_starts_at timestamptz,
  p_guest_name text, p_guest_email text, p_guest_phone text default null, p_notes text default null
) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  checked record;
  new_id uuid;
begin
  perform private.require_member(p_organization_id);
  select * into checked from private.check_booking(p_organization_id, p_service_id, p_provider_id,
    p_starts_at, p_guest_name, p_guest_email, p_guest_phone, p_notes, true);
  begin
    insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at,
      ends_at, status, guest_name, guest_email, guest_phone, notes, total_price)
    values (p_organization_id, p_service_id, p_provider_id, p_starts_at, checked.o_end_at, 'confirmed',
      btrim(p_guest_name), btrim(p_guest_email), nullif(btrim(coalesce(p_guest_phone, '')), ''),
      nullif(btrim(coalesce(p_notes, '')), ''), checked.o_price)
    returning id into new_id;
  exception when exclusion_violation then
    raise exception 'slot_taken' using errcode = 'P0001';
  end;
  return new_id;
end
$$;

revoke execute on function private.booking_hours_refusal(uuid, uuid, jsonb, timestamp, timestamp),
  private.check_booking(uuid, uuid, uuid, timestamptz, text, text, text, text, boolean)
from public, anon, authenticated;
revoke execute on function
  public.create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text),
  public.staff_create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text)
from public, anon, authenticated;
grant execute on function public.create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text) to anon;
grant execute on function public.staff_create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text) to authenticated;
