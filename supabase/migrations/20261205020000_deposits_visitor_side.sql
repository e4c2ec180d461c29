-- Deposits and prepayment, the visitor's side (docs/product.md, Deposits and prepayment): what the
-- public pages read of a deposit, and what a public booking records of its visitor.
--
-- 1. private.booking_appointments_guest_locale: a public booking records the language of the page
--    and the time zone the visitor chose (guest_language, guest_timezone, for the mails the
--    visitor is owed later). The public path sets them as transaction settings
--    (app.booking_guest_language, app.booking_guest_timezone) before create_booking, as it sets
--    app.booking_max_upcoming: create_booking is unchanged. A value the columns would refuse (an
--    unknown language, a zone PostgreSQL does not know) is left out, never an error.
-- 2. public.get_public_booking_deposit(token): the deposit of a booking, for its manage page and
--    its mails: amount, memo code, deadline, status, and where the organization is paid (its
--    payment handles), plus the zone the visitor chose. Anon only, by the manage token, as
--    get_public_booking.
-- 3. public.get_public_deposit_terms(service): what the confirm step tells before booking: the
--    service's deposit (none, fixed, full; only after N no-shows), as private.deposit_for asks it
--    (none unless the organization owns the Deposits & Prepayment upgrade), and how long an unpaid
--    booking holds its slot. Nothing about any client: whether a visitor has no-shows is never said.

-- 1 -------------------------------------------------------------------------------------------

-- A time zone name PostgreSQL knows (as `at time zone` reads it), else null.
create function private.known_timezone(p_zone text) returns text
language plpgsql stable set search_path = ''
as $$
begin
  if p_zone is null or char_length(p_zone) > 64 or p_zone !~ '^[A-Za-z][A-Za-z0-9_+/-]*$' then
    return null;
  end if;
  perform now() at time zone p_zone;
  return p_zone;
exception when others then
  return null;
end
$$;

create function private.booking_appointments_guest_locale() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  lang text := nullif(current_setting('app.booking_guest_language', true), '');
begin
  if new.guest_language is null and lang in ('en', 'es', 'pt-BR') then
    new.guest_language := lang;
  end if;
  if new.guest_timezone is null then
    new.guest_timezone := private.known_timezone(nullif(current_setting('app.booking_guest_timezone', true), ''));
  end if;
  return new;
end
$$;

-- Only the public page sets a manage token, and only it sets these settings.
create trigger booking_appointments_guest_locale before insert on public.booking_appointments
  for each row when (new.manage_token_hash is not null) execute function private.booking_appointments_guest_locale();

-- 2 -------------------------------------------------------------------------------------------

create function public.get_public_booking_deposit(token text)
returns table (status text, amount_due numeric, memo_code text, due_at timestamptz, paid_at timestamptz,
  guest_timezone text, zelle text, venmo text, cashapp text, paypal text)
language sql stable security definer set search_path = ''
as $$
  select e.status, e.amount_due, e.memo_code, e.due_at, e.paid_at, a.guest_timezone, h.zelle, h.venmo, h.cashapp, h.paypal
  from public.booking_appointments a
  join public.payment_expectations e on e.appointment_id = a.id and e.kind = 'deposit'
  left join public.payment_handles h on h.organization_id = a.organization_id
  where token ~ '^[0-9a-f]{64}$'
    and a.manage_token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex')
  order by e.created_at desc, e.id desc
  limit 1
$$;

-- 3 -------------------------------------------------------------------------------------------

create function public.get_public_deposit_terms(p_service_id uuid)
returns table (deposit_kind text, deposit_amount numeric, deposit_after_no_shows integer, price numeric,
  hold_minutes integer, hold_before_start_minutes integer)
language sql stable security definer set search_path = ''
as $$
  select case when private.owns_upgrade(s.organization_id, 'c0000000-0000-4000-8000-000000000008') then s.deposit_kind else 'none' end,
    s.deposit_amount, s.deposit_after_no_shows, s.price, b.deposit_hold_minutes, b.deposit_hold_before_start_minutes
  from public.booking_services s
  join public.booking_settings b on b.organization_id = s.organization_id
  where s.id = p_service_id and s.is_active
$$;

revoke execute on function private.known_timezone(text), private.booking_appointments_guest_locale() from public, anon, authenticated;
revoke execute on function public.get_public_booking_deposit(text), public.get_public_deposit_terms(uuid) from public, anon, authenticated;
grant execute on function public.get_public_booking_deposit(text), public.get_public_deposit_terms(uuid) to anon;
