-- Booked and paid: appointments, clients and the payments that arrive join up (docs/product.md,
-- Booked and paid; docs/decisions/040-one-matching-engine.md).
--
-- 1. booking_appointments.client_id: the organization's client a booking belongs to, set by
--    private.booking_appointments_link_client (next migration) on every insert; guest_email may
--    be null (walk-ins booked by staff); guest_language and guest_timezone: what the booker used,
--    for their reminders.
-- 2. booking_appointment_events: an appointment's history (status changes, moves, payments,
--    reminders), written by triggers and by the matching engine, never by members directly.
-- 3. booking_services: the deposit each service asks (none, a fixed amount, or full prepayment),
--    optionally only from clients with N no-shows; booking_settings: how long an unpaid booking
--    holds its slot and when reminders go out.
-- 4. payment_handles: where the organization is paid (Zelle, Venmo, Cash App, PayPal.me); the
--    owners set them, as the rest of the organization's settings.
-- 5. payment_expectations: money the organization waits for (an appointment's deposit or balance,
--    later an invoice), each with a memo code; payment_matches: which transaction paid which
--    expectation and why (a transaction pays at most one); payment_match_refusals: pairs staff
--    undid, never matched again by the engine.

-- 1 -------------------------------------------------------------------------------------------

alter table public.booking_appointments
  add column client_id uuid,
  add column guest_language text check (guest_language in ('en', 'es', 'pt-BR')),
  add column guest_timezone text check (char_length(guest_timezone) <= 64),
  add constraint booking_appointments_client_fk foreign key (organization_id, client_id)
    references public.clients (organization_id, id) on delete set null (client_id),
  alter column guest_email drop not null;
create index booking_appointments_client_idx on public.booking_appointments (organization_id, client_id, starts_at desc);

-- 2 -------------------------------------------------------------------------------------------

create table public.booking_appointment_events (
  id bigint generated always as identity primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  appointment_id uuid not null references public.booking_appointments (id) on delete cascade,
  at timestamptz not null default now(),
  -- created, status (detail.status), moved (detail.from, detail.to), payment_matched
  -- (detail.method, detail.code, detail.transaction_id, detail.amount), payment_unmatched,
  -- marked_paid, hold_released, reminder_sent (detail.offset_minutes), payment_requested.
  kind text not null check (kind in ('created', 'status', 'moved', 'payment_matched', 'payment_unmatched',
    'marked_paid', 'hold_released', 'reminder_sent', 'payment_requested')),
  detail jsonb not null default '{}'::jsonb,
  -- The member who acted; null for the visitor, the engine or the scheduler.
  actor_id uuid references auth.users (id) on delete set null,
  -- Mails the visitor is owed because of this event (deposit received, hold released): sent by
  -- the app and stamped once (docs/decisions/040-one-matching-engine.md).
  guest_notice text check (guest_notice in ('payment_received', 'hold_released')),
  guest_notified_at timestamptz
);
create index booking_appointment_events_appointment_idx on public.booking_appointment_events (appointment_id, at, id);
create index booking_appointment_events_notice_idx on public.booking_appointment_events (organization_id, id)
  where guest_notice is not null and guest_notified_at is null;

revoke all on public.booking_appointment_events from anon, authenticated;
revoke all on sequence public.booking_appointment_events_id_seq from public, anon, authenticated;
alter table public.booking_appointment_events enable row level security;
grant select on public.booking_appointment_events to authenticated;
create policy "booking_appointment_events: members read their organization's events"
  on public.booking_appointment_events for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- 3 -------------------------------------------------------------------------------------------

alter table public.booking_services
  add column deposit_kind text not null default 'none' check (deposit_kind in ('none', 'fixed', 'full')),
  add column deposit_amount numeric(10, 2) check (deposit_amount > 0),
  -- Ask the deposit only from clients with at least this many no-shows; null: from everybody.
  add column deposit_after_no_shows integer check (deposit_after_no_shows between 1 and 20),
  add constraint booking_services_deposit_check check (
    (deposit_kind = 'fixed' and deposit_amount is not null) or (deposit_kind <> 'fixed' and deposit_amount is null)
  );
grant insert (deposit_kind, deposit_amount, deposit_after_no_shows), update (deposit_kind, deposit_amount, deposit_after_no_shows)
  on public.booking_services to authenticated;

alter table public.booking_settings
  -- An unpaid booking holds its slot this long after it is made ...
  add column deposit_hold_minutes integer not null default 120 check (deposit_hold_minutes between 15 and 10080),
  -- ... and never later than this many minutes before it starts (null: up to the start).
  add column deposit_hold_before_start_minutes integer check (deposit_hold_before_start_minutes between 0 and 10080),
  -- Reminder mails this many minutes before the start (empty: none), at most three.
  add column reminder_offsets_minutes integer[] not null default '{1440,60}' check (
    cardinality(reminder_offsets_minutes) <= 3 and 15 <= all (reminder_offsets_minutes) and 10080 >= all (reminder_offsets_minutes)
  );
grant update (deposit_hold_minutes, deposit_hold_before_start_minutes, reminder_offsets_minutes)
  on public.booking_settings to authenticated;

-- 4 -------------------------------------------------------------------------------------------

create table public.payment_handles (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  -- An e-mail address or a US phone number (10 digits, stored as typed digits only).
  zelle text check (char_length(zelle) <= 254 and (zelle ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or zelle ~ '^[0-9]{10}$')),
  -- Without the leading @ / $, as the apps spell them.
  venmo text check (venmo ~ '^[A-Za-z0-9_-]{5,30}$'),
  cashapp text check (cashapp ~ '^[A-Za-z][A-Za-z0-9_]{0,19}$'),
  paypal text check (paypal ~ '^[A-Za-z0-9]{1,20}$'),
  updated_at timestamptz not null default now()
);
create trigger payment_handles_touch before update on public.payment_handles
  for each row execute function public.touch_updated_at();

revoke all on public.payment_handles from anon, authenticated;
alter table public.payment_handles enable row level security;
grant select on public.payment_handles to authenticated;
grant insert (organization_id, zelle, venmo, cashapp, paypal), update (zelle, venmo, cashapp, paypal)
  on public.payment_handles to authenticated;
create policy "payment_handles: members read their organization's handles"
  on public.payment_handles for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "payment_handles: owners add their organization's handles"
  on public.payment_handles for insert to authenticated
  with check (organization_id in (select public.my_organization_ids('owner')));
create policy "payment_handles: owners change their organization's handles"
  on public.payment_handles for update to authenticated
  using (organization_id in (select public.my_organization_ids('owner')))
  with check (organization_id in (select public.my_organization_ids('owner')));

-- 5 -------------------------------------------------------------------------------------------

create table public.payment_expectations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- deposit: asked when booked, holds the slot until due_at; balance: what a completed
  -- appointment still owes; invoice: reserved for invoicing.
  kind text not null check (kind in ('deposit', 'balance', 'invoice')),
  appointment_id uuid references public.booking_appointments (id) on delete cascade,
  client_id uuid,
  amount_due numeric(12, 2) not null check (amount_due > 0),
  -- Six characters of an alphabet without look-alikes (no 0/O, 1/I/L, U/V): private.new_memo_code.
  memo_code text not null check (memo_code ~ '^[2-9A-HJKMNP-TW-Z]{6}$'),
  -- Payments from the client for the exact amount count from a day before opens_at to due_at
  -- (or private.payer_window_days after created_at when due_at is null).
  opens_at timestamptz not null default now(),
  due_at timestamptz,
  status text not null default 'open' check (status in ('open', 'paid', 'released', 'void')),
  paid_at timestamptz,
  -- A member marked it paid by hand (cash, a payment not in the app).
  marked_paid_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, id),
  check ((status = 'paid') = (paid_at is not null)),
  check (kind <> 'invoice' or appointment_id is null),
  foreign key (organization_id, client_id) references public.clients (organization_id, id) on delete set null (client_id)
);
-- One open expectation per code in an organization: a code names one thing to pay.
create unique index payment_expectations_open_code_idx on public.payment_expectations (organization_id, memo_code)
  where status = 'open';
create index payment_expectations_open_client_idx on public.payment_expectations (organization_id, client_id, opens_at)
  where status = 'open';
create index payment_expectations_appointment_idx on public.payment_expectations (appointment_id);
create index payment_expectations_due_idx on public.payment_expectations (due_at) where status = 'open' and due_at is not null;
create trigger payment_expectations_touch before update on public.payment_expectations
  for each row execute function public.touch_updated_at();

revoke all on public.payment_expectations from anon, authenticated;
alter table public.payment_expectations enable row level security;
grant select on public.payment_expectations to authenticated;
create policy "payment_expectations: members read their organization's expectations"
  on public.payment_expectations for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create table public.payment_matches (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- A payment pays one expectation at most, whatever the number of instances matching at once.
  transaction_id uuid not null unique references public.transactions (id) on delete cascade,
  expectation_id uuid not null,
  amount numeric(12, 2) not null check (amount > 0),
  -- memo_code: the memo carried the code; payer_amount: the client's payment of the exact
  -- amount inside the window; manual: a member linked them.
  method text not null check (method in ('memo_code', 'payer_amount', 'manual')),
  matched_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  foreign key (organization_id, expectation_id) references public.payment_expectations (organization_id, id) on delete cascade
);
create index payment_matches_expectation_idx on public.payment_matches (expectation_id);

revoke all on public.payment_matches from anon, authenticated;
alter table public.payment_matches enable row level security;
grant select on public.payment_matches to authenticated;
create policy "payment_matches: members read their organization's matches"
  on public.payment_matches for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create table private.payment_match_refusals (
  transaction_id uuid not null references public.transactions (id) on delete cascade,
  expectation_id uuid not null references public.payment_expectations (id) on delete cascade,
  refused_at timestamptz not null default now(),
  primary key (transaction_id, expectation_id)
);
