-- The public booking wizard (docs/product.md, Public booking; docs/decisions/013-public-wizard.md):
--
-- 1. get_public_date_overrides (anon): the days off and special hours the page must honour, so
--    it never offers a start create_booking would refuse with closed_that_day or provider_day_off.
-- 2. create_booking, as in 20261122005000_booking_staff.sql, also refuses a visitor who already
--    holds too many upcoming bookings with the organization (too_many_bookings). The limit is
--    the transaction setting app.booking_max_upcoming when the server sets it, else 3.
-- 3. reschedule_booking (anon, by manage token): moves the booking to a new provider and start in
--    one statement, so the old slot is freed only when the new one is taken. Same checks as a new
--    booking, and the same cancellation notice as cancel_booking.

create function public.get_public_date_overrides(org_id uuid, from_date date, to_date date)
returns table (provider_id uuid, date text, closed boolean, start_time text, end_time text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if from_date is null or to_date is null or to_date < from_date or to_date - from_date > 400 then
    raise exception 'invalid_range' using errcode = 'P0001';
  end if;
  return query
    select o.provider_id, to_char(o.date, 'YYYY-MM-DD'), o.closed,
      to_char(o.start_time, 'HH24:MI'),
      case when o.end_time = '24:00' then '24:00' else to_char(o.end_time, 'HH24:MI') end
    from public.booking_date_overrides o
    left join public.booking_providers p on p.id = o.provider_id
    where o.organization_id = get_public_date_overrides.org_id
      and o.date between get_public_date_overrides.from_date and get_public_date_overrides.to_date
      and (o.provider_id is null or p.is_active)
    order by o.date, o.provider_id nulls first, o.start_time nulls first;
end
$$;

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
  max_upcoming integer;
  upcoming integer;
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

  max_upcoming := coalesce(nullif(current_setting('app.booking_max_upcoming', true), '')::integer, 3);
  select count(*) into upcoming from public.booking_appointments a
  where a.organization_id = p_organization_id
    and lower(a.guest_email) = lower(btrim(p_guest_email))
    and a.status in ('pending', 'confirmed') and a.starts_at > now();
  if upcoming >= max_upcoming then
    raise exception 'too_many_bookings' using errcode = 'P0001';
  end if;

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

-- Moves a booking to a new provider and start, by its manage token. Refusals: booking_not_found,
-- already_cancelled, not_cancellable, too_late_to_change (inside cancellation_hours of the
-- current start), guest_booking_disabled, service_unavailable, every refusal of a new booking
-- (private.check_booking), slot_taken. The row keeps its id, token, service, price and status.
create function public.reschedule_booking(token text, p_provider_id uuid, p_starts_at timestamptz)
returns table (id uuid, status public.appointment_status, starts_at timestamptz, ends_at timestamptz)
language plpgsql security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  booking public.booking_appointments;
  settings public.booking_settings;
  checked record;
  moved public.booking_appointments;
begin
  if token is null or token !~ '^[0-9a-f]{64}$' then
    raise exception 'booking_not_found' using errcode = 'P0001';
  end if;
  select a.* into booking from public.booking_appointments a
  where a.manage_token_hash = encode(sha256(convert_to(reschedule_booking.token, 'UTF8')), 'hex')
  for update of a;
  if not found then
    raise exception 'booking_not_found' using errcode = 'P0001';
  end if;
  select s.* into settings from public.booking_settings s where s.organization_id = booking.organization_id;
  if booking.status = 'cancelled' then
    raise exception 'already_cancelled' using errcode = 'P0001';
  end if;
  if booking.status not in ('pending', 'confirmed') then
    raise exception 'not_cancellable' using errcode = 'P0001';
  end if;
  if booking.starts_at < now() + make_interval(hours => settings.cancellation_hours) then
    raise exception 'too_late_to_change' using errcode = 'P0001';
  end if;
  if not settings.allow_guest_booking then
    raise exception 'guest_booking_disabled' using errcode = 'P0001';
  end if;
  if booking.service_id is null then
    raise exception 'service_unavailable' using errcode = 'P0001';
  end if;
  select * into checked from private.check_booking(booking.organization_id, booking.service_id,
    p_provider_id, p_starts_at, booking.guest_name, booking.guest_email, booking.guest_phone,
    booking.notes, false);
  begin
    update public.booking_appointments a
    set provider_id = p_provider_id, starts_at = p_starts_at, ends_at = checked.o_end_at
    where a.id = booking.id
    returning a.* into moved;
  exception when exclusion_violation then
    raise exception 'slot_taken' using errcode = 'P0001';
  end;
  return query select moved.id, moved.status, moved.starts_at, moved.ends_at;
end
$$;

-- get_public_booking as in 20261122001100_data_functions.sql, with what the manage page needs
-- to reschedule and to send calendar updates: the organization, service and provider ids, and
-- the calendar revision (tenths of a second between creation and the last change: grows with
-- every change made by a separate request, and fits an integer for six years;
-- the SEQUENCE of the .ics files).
drop function public.get_public_booking(text);
create function public.get_public_booking(token text)
returns table (id uuid, status public.appointment_status, starts_at timestamptz, ends_at timestamptz,
  appointment_date date, start_time time, end_time time, timezone text, service_name text,
  duration_minutes integer, provider_name text, guest_name text, guest_email text,
  guest_phone text, notes text, total_price numeric, organization_name text,
  organization_slug text, cancellable_until timestamptz, organization_id uuid, service_id uuid,
  provider_id uuid, revision integer)
language sql stable security definer set search_path = ''
as $$
  select a.id, a.status, a.starts_at, a.ends_at, a.appointment_date, a.start_time, a.end_time,
    s.timezone, svc.name, svc.duration_minutes, p.display_name, a.guest_name, a.guest_email,
    a.guest_phone, a.notes, a.total_price, o.name, o.slug,
    a.starts_at - make_interval(hours => s.cancellation_hours),
    a.organization_id, a.service_id, a.provider_id,
    least(2147483647, greatest(0, floor(extract(epoch from a.updated_at - a.created_at) * 10)))::integer
  from public.booking_appointments a
  join public.organizations o on o.id = a.organization_id
  join public.booking_settings s on s.organization_id = a.organization_id
  left join public.booking_services svc on svc.id = a.service_id
  left join public.booking_providers p on p.id = a.provider_id
  where token ~ '^[0-9a-f]{64}$'
    and a.manage_token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex')
$$;

revoke execute on function public.get_public_date_overrides(uuid, date, date),
  public.create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text),
  public.reschedule_booking(text, uuid, timestamptz), public.get_public_booking(text)
from public, anon, authenticated;
grant execute on function public.get_public_date_overrides(uuid, date, date),
  public.create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text),
  public.reschedule_booking(text, uuid, timestamptz), public.get_public_booking(text)
to anon;
