-- booking_settings.allow_guest_booking = false closes the public booking page: create_booking
-- (the anonymous path) refuses with guest_booking_disabled and stores nothing. Staff still add
-- appointments themselves (the members' insert policy on booking_appointments), and a guest who
-- already holds a manage token can still see and cancel that booking. The page learns the flag
-- from get_public_booking_settings. Why: docs/decisions/007-guest-booking-setting.md.
--
-- create_booking as in 20261122002100_email_and_business_hours_checks.sql, with that check first.
--
-- Books an appointment for a visitor, when the organization takes bookings from its public page.
-- Everything is re-validated here: the service and provider are active and of this organization,
-- the start is inside the provider's (or the organization's) enabled hours in the organization's
-- timezone, at least min_advance_hours and at most max_advance_days ahead; the end and the price
-- come from the service; the buffer, the local date and times are derived by the table's trigger;
-- the exclusion constraint refuses an overlap (slot_taken), also under concurrency. Returns the
-- manage token once.
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
  if not settings.allow_guest_booking then
    raise exception 'guest_booking_disabled' using errcode = 'P0001';
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
  if not public.is_valid_email(guest_email) then
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
