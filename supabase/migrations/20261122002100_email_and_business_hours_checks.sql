-- One definition each of a valid email address and of valid business hours (docs/data-model.md),
-- used by the check constraints that carried copies of them, and by create_booking for the
-- guest's email. Both are pure (immutable, strict: null in, null out, which a check constraint
-- accepts, so the nullable columns stay optional). They live in public, not private: a check
-- constraint runs with the writer's privileges, so `authenticated` must be able to execute them,
-- and schema private stays closed to every API role (tests/db/rls-matrix.test.ts).

-- At most 254 characters, one @, no whitespace, a dot in the domain.
create function public.is_valid_email(address text) returns boolean
language sql immutable strict parallel safe set search_path = ''
as $$
  select char_length(address) <= 254 and address ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
$$;

-- An object with every weekday monday..sunday and nothing else, each
-- {start "HH:MM", end "HH:MM" (or "24:00"), enabled boolean} with start before end.
create function public.is_valid_business_hours(hours jsonb) returns boolean
language sql immutable strict parallel safe set search_path = ''
as $$
  select case when jsonb_typeof(hours) <> 'object' then false else
    hours ?& array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
    and hours - array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] = '{}'::jsonb
    and not jsonb_path_exists(hours, '$.* ? (@.type() != "object" || !exists(@.start) || !exists(@.end) || !exists(@.enabled))')
    and not jsonb_path_exists(hours, '$.* ? (@.start.type() != "string" || @.end.type() != "string" || @.enabled.type() != "boolean")')
    and not jsonb_path_exists(hours, '$.* ? (!(@.start like_regex "^([01][0-9]|2[0-3]):[0-5][0-9]$") || !(@.end like_regex "^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$") || @.start >= @.end)')
  end
$$;

-- Whoever writes these columns runs them: signed-in users (through RLS) and the service role.
revoke execute on function public.is_valid_email(text), public.is_valid_business_hours(jsonb)
  from public, anon, authenticated;
grant execute on function public.is_valid_email(text), public.is_valid_business_hours(jsonb)
  to authenticated, service_role;

alter table public.clients
  drop constraint clients_email_check,
  add constraint clients_email_check check (public.is_valid_email(email));
alter table public.booking_appointments
  drop constraint booking_appointments_guest_email_check,
  add constraint booking_appointments_guest_email_check check (public.is_valid_email(guest_email));
alter table public.booking_settings
  drop constraint booking_settings_business_hours_check,
  drop constraint booking_settings_business_hours_shape,
  add constraint booking_settings_business_hours_check check (public.is_valid_business_hours(business_hours));
alter table public.booking_providers
  drop constraint booking_providers_business_hours_check,
  add constraint booking_providers_business_hours_check check (public.is_valid_business_hours(business_hours));

-- create_booking as in 20261122001100_data_functions.sql, with its copy of the email pattern
-- replaced by public.is_valid_email.
--
-- Books an appointment for a visitor. Everything is re-validated here: the service and
-- provider are active and of this organization, the start is inside the provider's (or the
-- organization's) enabled hours in the organization's timezone, at least min_advance_hours and
-- at most max_advance_days ahead; the end and the price come from the service; the buffer,
-- the local date and times are derived by the table's trigger; the exclusion constraint
-- refuses an overlap (slot_taken), also under concurrency. Returns the manage token once.
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
