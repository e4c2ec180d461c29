-- Who still owes me, and booking reminders (docs/product.md, Who still owes me and Booking
-- reminders; docs/decisions/041-reminder-links.md).
--
-- 1. booking_appointments_reminder_idx: the reminders job finds the appointments that start in
--    a few minutes' window (now + each reminder offset) with one range scan per offset, over the
--    appointments still to come that have an address to write to.
-- 2. private.booking_manage_tokens: a public booking's manage token, sealed by the server's key
--    (app/.server/secrets.ts), so a reminder can carry the visitor's manage link; the token
--    itself stays unstored, as for remember_booking_attempt. Written by remember_manage_token in
--    the booking's own transaction, read only by the server (asSystem).
-- 3. public.request_payment: a member asks the client of an open deposit or balance to pay it:
--    checks it, writes the appointment's 'payment_requested' event and returns what the mail
--    says. Refusals: not_found (no such expectation in the caller's organizations), not_open
--    (paid, released, void, or an invoice), no_email (neither the client nor the booking has an
--    address). The rate limit is the server's (LIMITS, app/.server/rate-limit.ts).
-- 4. job_runs_finished_idx: the reminders claim one row of private.job_runs per reminder (about
--    two per appointment) and drop those finished over a day ago; the index finds them by age
--    rather than by reading every claim of the job.

-- 1 -------------------------------------------------------------------------------------------

create index booking_appointments_reminder_idx on public.booking_appointments (starts_at)
  where status in ('pending', 'confirmed') and guest_email is not null;

-- 2 -------------------------------------------------------------------------------------------

create table private.booking_manage_tokens (
  appointment_id uuid primary key references public.booking_appointments (id) on delete cascade,
  sealed_token text not null check (char_length(sealed_token) <= 500),
  created_at timestamptz not null default now()
);
alter table private.booking_manage_tokens enable row level security;
revoke all on private.booking_manage_tokens from public, anon, authenticated;

-- Only a public booking created in the caller's own transaction (created_at is the transaction's
-- start) can be given its sealed token, once: nobody can attach a value to another booking.
create function public.remember_manage_token(p_appointment_id uuid, p_sealed_token text)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if p_sealed_token is null or char_length(p_sealed_token) > 500 or not exists (
    select 1 from public.booking_appointments a
    where a.id = p_appointment_id and a.created_at = now() and a.manage_token_hash is not null
  ) then
    raise exception 'invalid_token' using errcode = 'P0001';
  end if;
  insert into private.booking_manage_tokens (appointment_id, sealed_token) values (p_appointment_id, p_sealed_token)
  on conflict (appointment_id) do nothing;
end
$$;

revoke execute on function public.remember_manage_token(uuid, text) from public, anon, authenticated;
grant execute on function public.remember_manage_token(uuid, text) to anon;

-- 3 -------------------------------------------------------------------------------------------

create function public.request_payment(p_expectation_id uuid)
returns table (
  appointment_id uuid, email text, language text, time_zone text, guest_name text, organization_name text,
  service_name text, starts_at timestamptz, ends_at timestamptz, kind text, amount numeric, memo_code text,
  zelle text, venmo text, cashapp text, paypal text
)
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  e public.payment_expectations;
  a public.booking_appointments;
  address text;
  remaining numeric;
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = 'P0001';
  end if;
  select * into e from public.payment_expectations x where x.id = p_expectation_id for update;
  -- Another organization's expectation is as unknown as one that does not exist.
  if not found or e.appointment_id is null
    or not exists (select 1 from public.my_organization_ids() as mine (id) where mine.id = e.organization_id) then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  remaining := private.expectation_remaining(e.id);
  if e.status <> 'open' or e.kind not in ('deposit', 'balance') or remaining <= 0 then
    raise exception 'not_open' using errcode = 'P0001';
  end if;
  select * into a from public.booking_appointments x where x.id = e.appointment_id;
  address := coalesce(
    (select nullif(btrim(c.email), '') from public.clients c where c.id = e.client_id and c.organization_id = e.organization_id),
    nullif(btrim(a.guest_email), ''));
  if address is null then
    raise exception 'no_email' using errcode = 'P0001';
  end if;
  insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail, actor_id)
  values (e.organization_id, a.id, 'payment_requested',
    jsonb_build_object('expectation', e.kind, 'code', e.memo_code, 'amount', remaining, 'to', address), auth.uid());
  return query
  select a.id, address,
    -- The booker's language, else the organization's: its first owner's.
    coalesce(a.guest_language, (select p.preferred_language from public.organization_members m
      join public.profiles p on p.user_id = m.user_id
      where m.organization_id = e.organization_id and m.role = 'owner' order by m.joined_at, m.user_id limit 1), 'en'),
    coalesce(a.guest_timezone, s.timezone, 'UTC'), a.guest_name, o.name, svc.name, a.starts_at, a.ends_at,
    e.kind, remaining, e.memo_code, h.zelle, h.venmo, h.cashapp, h.paypal
  from public.organizations o
  left join public.booking_settings s on s.organization_id = o.id
  left join public.booking_services svc on svc.id = a.service_id
  left join public.payment_handles h on h.organization_id = o.id
  where o.id = e.organization_id;
end
$$;

revoke execute on function public.request_payment(uuid) from public, anon, authenticated;
grant execute on function public.request_payment(uuid) to authenticated;

-- 4 -------------------------------------------------------------------------------------------

create index job_runs_finished_idx on private.job_runs (job, finished_at) where finished_at is not null;
