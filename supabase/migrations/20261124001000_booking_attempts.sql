-- A public booking's confirm form carries a random attempt key. The booking remembers it, in its
-- own transaction, with the manage token sealed by the server's key (the token itself stays
-- unstored, as the data model promises), so a second post of the same form (a double tap with
-- JavaScript off, a retried request) finds the booking it made instead of "slot taken":
-- docs/decisions/013-public-wizard.md, "One booking per confirm form".

create table private.booking_attempts (
  key_hash text primary key check (key_hash ~ '^[0-9a-f]{64}$'),
  appointment_id uuid not null references public.booking_appointments (id) on delete cascade,
  sealed_token text not null check (char_length(sealed_token) <= 500),
  created_at timestamptz not null default now()
);
create index booking_attempts_appointment_idx on private.booking_attempts (appointment_id);
create index booking_attempts_created_idx on private.booking_attempts (created_at);
alter table private.booking_attempts enable row level security;
revoke all on private.booking_attempts from public, anon, authenticated;

-- Only an appointment created in the caller's own transaction can be remembered (created_at is
-- the transaction's start), so nobody can attach a key to someone else's booking. Attempts older
-- than a day are removed on the way.
create function public.remember_booking_attempt(attempt_key text, appointment_id uuid, sealed_token text)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if attempt_key is null or char_length(attempt_key) not between 20 and 100
     or sealed_token is null or char_length(sealed_token) > 500 then
    raise exception 'invalid_attempt' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.booking_appointments a where a.id = appointment_id and a.created_at = now()) then
    raise exception 'invalid_attempt' using errcode = 'P0001';
  end if;
  delete from private.booking_attempts b where b.created_at < now() - interval '1 day';
  insert into private.booking_attempts (key_hash, appointment_id, sealed_token)
  values (encode(sha256(convert_to(attempt_key, 'UTF8')), 'hex'), appointment_id, sealed_token);
end
$$;

-- The booking an attempt key made in the last day, if any.
create function public.booking_attempt(attempt_key text)
returns table (appointment_id uuid, sealed_token text)
language sql stable security definer set search_path = ''
as $$
  select b.appointment_id, b.sealed_token from private.booking_attempts b
  where b.key_hash = encode(sha256(convert_to(coalesce(attempt_key, ''), 'UTF8')), 'hex')
    and b.created_at > now() - interval '1 day'
$$;

revoke execute on function public.remember_booking_attempt(text, uuid, text), public.booking_attempt(text) from public;
grant execute on function public.remember_booking_attempt(text, uuid, text), public.booking_attempt(text) to anon, authenticated;
