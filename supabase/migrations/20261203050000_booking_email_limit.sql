-- The per-address limit of public bookings (docs/product.md, Public booking; docs/security.md,
-- Booking limits): "at most app.booking_max_upcoming (3) upcoming bookings per email with an
-- organization" now holds under confirms sent at once and whatever the spelling of the address.
--
-- 1. private.booking_email_key: the address as the limit counts it: trimmed, lower case, and
--    without a +tag in the local part ("A+shop@X.com" and "a@x.com" are one address). For
--    counting only: the stored address stays as typed.
-- 2. create_booking as in 20261123002000_public_wizard.sql (same signature, same refusal
--    too_many_bookings), except that it takes a transaction-level advisory lock on (organization,
--    address key) before it counts, so the count and the insert are one step per address (two
--    confirms on different providers no longer both see two bookings and both insert a fourth),
--    and it counts by the key. The lock comes after the provider's (private.check_booking) and
--    nothing is locked after it but the new row: no order of locks can deadlock.
--    reschedule_booking moves a booking without adding one and keeps no count: unchanged.

create function private.booking_email_key(email text)
returns text
language sql immutable parallel safe set search_path = ''
as $$
  select regexp_replace(lower(btrim(coalesce(email, ''))), '^([^@+]*)\+[^@]*@', '\1@')
$$;
revoke all on function private.booking_email_key(text) from public, anon, authenticated;

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
  email_key text;
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

  -- One address, one queue: the count and the insert below happen under this lock, so
  -- confirms of one address sent at once (on different providers) are counted one by one.
  email_key := private.booking_email_key(p_guest_email);
  perform pg_advisory_xact_lock(hashtextextended('booking_email:' || p_organization_id::text || ':' || email_key, 0));
  max_upcoming := coalesce(nullif(current_setting('app.booking_max_upcoming', true), '')::integer, 3);
  select count(*) into upcoming from public.booking_appointments a
  where a.organization_id = p_organization_id
    and private.booking_email_key(a.guest_email) = email_key
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

revoke execute on function public.create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text) from public, anon, authenticated;
grant execute on function public.create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text) to anon;
