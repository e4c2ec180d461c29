-- The matching engine and the booking rules around it (docs/decisions/040-one-matching-engine.md;
-- docs/product.md, Booked and paid). One engine joins the payments that arrive (email sync, CSV
-- import, typed by hand: every insert into transactions) to the money the organization waits for
-- (payment_expectations: deposits, balances, later invoices):
--
-- * by memo code: a word of the payment's description equal to an open expectation's code;
-- * else by payer and amount: the payment's client has an open expectation whose remaining amount
--   is exactly the payment's, and the payment's date lies in the expectation's window.
--
-- Deterministic (payments in date, creation, id order; candidates in opening, id order),
-- explainable (payment_matches.method), a payment matches once (unique transaction_id), and safe
-- across instances: it runs inside the inserting transaction and locks the expectation it pays.
--
-- Around it: bookings link to (or create) their client; an appointment's history is written by
-- triggers; a public booking of a service that asks a deposit waits for payment and holds its
-- slot until the deadline (private.release_expired_holds frees it); completing an appointment
-- leaves what it still owes as a balance expectation.

-- Codes ------------------------------------------------------------------------------------------

-- Six characters of 2-9 A-H J K M N P-T W-Z (29 symbols, no 0/O, 1/I/L, U/V look-alikes):
-- 29^6 ≈ 595 million codes; retried until no open expectation of the organization holds it.
create function private.new_memo_code(p_organization_id uuid) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  alphabet constant text := '23456789ABCDEFGHJKMNPQRSTWXYZ';
  bytes bytea;
  code text;
begin
  loop
    bytes := uuid_send(gen_random_uuid());
    code := '';
    for i in 0..5 loop
      code := code || substr(alphabet, 1 + get_byte(bytes, i) % 29, 1);
    end loop;
    exit when not exists (select 1 from public.payment_expectations e
      where e.organization_id = p_organization_id and e.memo_code = code and e.status = 'open');
  end loop;
  return code;
end
$$;

-- The words of a memo that could be codes, as typed in any case ("hold k7qm4p", "#K7QM4P").
create function private.memo_words(description text) returns text[]
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(array_agg(distinct w), '{}') from regexp_split_to_table(upper(coalesce(description, '')), '[^A-Z0-9]+') as w
  where w ~ '^[2-9A-HJKMNP-TW-Z]{6}$'
$$;

-- Days a payment of the client for the exact amount may come after an expectation without a due
-- date was created (a balance, which opens when its appointment was booked). Before it opened,
-- one day (time zones: a payment carries a date only).
create function private.payer_window_days() returns integer
language sql immutable parallel safe set search_path = ''
as $$ select 30 $$;

-- The engine ------------------------------------------------------------------------------------

create function private.expectation_remaining(p_expectation_id uuid) returns numeric
language sql stable security definer set search_path = ''
as $$
  select e.amount_due - coalesce((select sum(m.amount) from public.payment_matches m where m.expectation_id = e.id), 0)
  from public.payment_expectations e where e.id = p_expectation_id
$$;

-- After a match is added or removed: paid when the matches cover the amount (the appointment is
-- confirmed if it waited, its client becomes active), open again when an undo leaves it short.
create function private.settle_expectation(p_expectation_id uuid, p_actor uuid default null, p_remaining numeric default null) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  e public.payment_expectations;
  remaining numeric;
begin
  select * into e from public.payment_expectations where id = p_expectation_id for update;
  if not found then
    return;
  end if;
  -- The caller that has just computed it passes it (one sum of the matches per payment, not three).
  remaining := coalesce(p_remaining, private.expectation_remaining(e.id));
  if remaining <= 0 and e.status = 'open' then
    update public.payment_expectations set status = 'paid', paid_at = now() where id = e.id;
    if e.appointment_id is not null then
      update public.booking_appointments set status = 'confirmed'
      where id = e.appointment_id and status = 'pending' and e.kind = 'deposit';
    end if;
    update public.clients set status = 'active' where id = e.client_id and status = 'pending';
  elsif remaining > 0 and e.status = 'paid' and e.marked_paid_by is null then
    update public.payment_expectations set status = 'open', paid_at = null where id = e.id;
  end if;
end
$$;

-- Links one payment to one expectation (the caller has locked it and checked it is open).
create function private.record_match(
  p_transaction_id uuid, p_expectation_id uuid, p_method text, p_actor uuid default null, p_link_client boolean default true
) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
declare
  t public.transactions;
  e public.payment_expectations;
  inserted uuid;
  remaining numeric;
begin
  select * into t from public.transactions where id = p_transaction_id;
  select * into e from public.payment_expectations where id = p_expectation_id;
  insert into public.payment_matches (organization_id, transaction_id, expectation_id, amount, method, matched_by)
  values (e.organization_id, t.id, e.id, t.amount, p_method, p_actor)
  on conflict (transaction_id) do nothing
  returning id into inserted;
  if inserted is null then
    return false;
  end if;
  -- The payment now belongs to the expectation's client (match_payments does it for its whole
  -- batch in one statement afterwards: one pass of the rollup triggers, not one per payment).
  if p_link_client and e.client_id is not null and t.client_id is null then
    update public.transactions set client_id = e.client_id,
      category = case when category in ('unmatched', 'review') then 'matched'::public.transaction_category else category end
    where id = t.id;
  end if;
  remaining := private.expectation_remaining(e.id);
  -- The match that completes a deposit owes the visitor a "payment received" mail.
  if e.appointment_id is not null then
    insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail, actor_id, guest_notice)
    values (e.organization_id, e.appointment_id, 'payment_matched', jsonb_build_object(
      'method', p_method, 'code', e.memo_code, 'transaction_id', t.id, 'amount', t.amount,
      'payment_method', t.payment_method, 'date', t.date_received, 'expectation', e.kind), p_actor,
      case when e.kind = 'deposit' and e.status = 'open' and remaining <= 0 then 'payment_received' end);
  end if;
  perform private.settle_expectation(e.id, p_actor, remaining);
  return true;
end
$$;

-- Matches the given payments of one organization, in date order; returns how many matched.
create function private.match_payments(p_organization_id uuid, p_transaction_ids uuid[]) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  t record;
  target uuid;
  how text;
  matched integer := 0;
begin
  for t in
    select tx.id, tx.client_id, tx.amount, tx.date_received, private.memo_words(tx.description) as words
    from public.transactions tx
    where tx.organization_id = p_organization_id and tx.id = any (p_transaction_ids) and tx.amount > 0
      and not exists (select 1 from public.payment_matches m where m.transaction_id = tx.id)
    order by tx.date_received, tx.created_at, tx.id
  loop
    target := null;
    how := 'memo_code';
    select e.id into target from public.payment_expectations e
    where e.organization_id = p_organization_id and e.status = 'open'
      and cardinality(t.words) > 0 and e.memo_code = any (t.words)
      and not exists (select 1 from private.payment_match_refusals r where r.transaction_id = t.id and r.expectation_id = e.id)
    order by e.opens_at, e.id
    limit 1
    for update;
    if target is null and t.client_id is not null then
      how := 'payer_amount';
      select e.id into target from public.payment_expectations e
      where e.organization_id = p_organization_id and e.status = 'open' and e.client_id = t.client_id
        and t.date_received between (e.opens_at - interval '1 day')::date
          and (coalesce(e.due_at, e.created_at + make_interval(days => private.payer_window_days())) + interval '1 day')::date
        and private.expectation_remaining(e.id) = t.amount
        and not exists (select 1 from private.payment_match_refusals r where r.transaction_id = t.id and r.expectation_id = e.id)
      order by e.opens_at, e.id
      limit 1
      for update;
    end if;
    -- Locked, so another instance may have settled it meanwhile.
    if target is not null and (select e.status from public.payment_expectations e where e.id = target) = 'open' then
      if private.record_match(t.id, target, how, null, false) then
        matched := matched + 1;
      end if;
    end if;
  end loop;
  if matched > 0 then
    update public.transactions tx set client_id = e.client_id,
      category = case when tx.category in ('unmatched', 'review') then 'matched'::public.transaction_category else tx.category end
    from public.payment_matches m join public.payment_expectations e on e.id = m.expectation_id
    where m.transaction_id = any (p_transaction_ids) and tx.id = m.transaction_id
      and tx.client_id is null and e.client_id is not null;
  end if;
  return matched;
end
$$;

-- The other direction: an expectation that opens (a balance at completion) takes a payment that
-- came before it, of its client, for the exact amount, in its window, not matched yet.
create function private.match_expectation(p_expectation_id uuid) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
declare
  e public.payment_expectations;
  found_tx uuid;
begin
  select * into e from public.payment_expectations where id = p_expectation_id and status = 'open' for update;
  if not found or e.client_id is null then
    return false;
  end if;
  select tx.id into found_tx from public.transactions tx
  where tx.organization_id = e.organization_id and tx.client_id = e.client_id
    and tx.amount = private.expectation_remaining(e.id)
    and tx.date_received between (e.opens_at - interval '1 day')::date
      and (coalesce(e.due_at, e.created_at + make_interval(days => private.payer_window_days())) + interval '1 day')::date
    and not exists (select 1 from public.payment_matches m where m.transaction_id = tx.id)
    and not exists (select 1 from private.payment_match_refusals r where r.transaction_id = tx.id and r.expectation_id = e.id)
  order by tx.date_received, tx.created_at, tx.id
  limit 1;
  if found_tx is null then
    return false;
  end if;
  return private.record_match(found_tx, e.id, 'payer_amount');
end
$$;

-- Whether a payment could match anything open: a code in its memo or its client waiting (two
-- index probes: the open-code index and the open-client index).
create function private.may_match(p_organization_id uuid, p_description text, p_client_id uuid) returns boolean
language plpgsql stable security definer set search_path = ''
as $$
declare
  words text[] := private.memo_words(p_description);
begin
  return (cardinality(words) > 0 and exists (select 1 from public.payment_expectations e
      where e.organization_id = p_organization_id and e.status = 'open' and e.memo_code = any (words)))
    or (p_client_id is not null and exists (select 1 from public.payment_expectations e
      where e.organization_id = p_organization_id and e.status = 'open' and e.client_id = p_client_id));
end
$$;

-- Every insert into transactions, and every change of a payment's client, memo or amount, runs
-- the engine over the rows concerned: one statement-level call per statement, with a quick exit
-- when their organizations wait for nothing.
create function private.transactions_match_inserted() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  org uuid;
  ids uuid[];
begin
  -- A 100,000-row import of an organization that waits for nothing costs one pass over the rows.
  for org in select distinct n.organization_id from new_rows n loop
    continue when not exists (select 1 from public.payment_expectations e where e.organization_id = org and e.status = 'open');
    select array_agg(n.id) into ids from new_rows n
    where n.organization_id = org and n.amount > 0 and private.may_match(org, n.description, n.client_id);
    if ids is not null then
      perform private.match_payments(org, ids);
    end if;
  end loop;
  return null;
end
$$;

create function private.transactions_match_updated() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  org record;
begin
  for org in
    select n.organization_id, array_agg(n.id) as ids from new_rows n
    join old_rows o on o.id = n.id
    where n.amount > 0
      and (n.client_id is distinct from o.client_id or n.description is distinct from o.description or n.amount <> o.amount)
      and private.may_match(n.organization_id, n.description, n.client_id)
    group by n.organization_id
  loop
    perform private.match_payments(org.organization_id, org.ids);
  end loop;
  return null;
end
$$;

-- Named to fire after transactions_rollup_* (statement triggers of one event fire in name order):
-- a match that links the payment's client updates a row the rollups must already have counted.
create trigger transactions_settle_inserted after insert on public.transactions
  referencing new table as new_rows for each statement execute function private.transactions_match_inserted();
create trigger transactions_settle_updated after update on public.transactions
  referencing old table as old_rows new table as new_rows for each statement execute function private.transactions_match_updated();

-- Bookings and clients ---------------------------------------------------------------------------

create index clients_org_phone_key_idx on public.clients (organization_id, right(regexp_replace(phone, '[^0-9]', '', 'g'), 10))
  where phone is not null;

-- The organization's client a booking belongs to: the one with its e-mail (else its phone: the
-- last ten digits), the oldest if several; a new person becomes a client, pending until a first
-- visit or payment.
create function private.client_for_booking(p_organization_id uuid, p_name text, p_email text, p_phone text) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  digits text := right(regexp_replace(coalesce(p_phone, ''), '[^0-9]', '', 'g'), 10);
  found_id uuid;
begin
  if p_email is not null then
    select c.id into found_id from public.clients c
    where c.organization_id = p_organization_id and lower(c.email) = lower(btrim(p_email))
    order by c.created_at, c.id limit 1;
  end if;
  if found_id is null and char_length(digits) >= 7 then
    select c.id into found_id from public.clients c
    where c.organization_id = p_organization_id and c.phone is not null
      and right(regexp_replace(c.phone, '[^0-9]', '', 'g'), 10) = digits
    order by c.created_at, c.id limit 1;
  end if;
  if found_id is null then
    insert into public.clients (organization_id, user_id, name, email, phone, status)
    values (p_organization_id, null, left(btrim(p_name), 200), btrim(p_email), left(p_phone, 40), 'pending')
    returning id into found_id;
  end if;
  return found_id;
end
$$;

create function private.booking_appointments_link_client() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.client_id is null then
    new.client_id := private.client_for_booking(new.organization_id, new.guest_name, new.guest_email, new.guest_phone);
  end if;
  return new;
end
$$;

-- The deposit a public booking of this service asks: none, the fixed amount, or the price; when
-- the service asks it only after N no-shows, only from a client with that many; none unless the
-- organization owns the Deposits & Prepayment upgrade (app/lib/modules.ts, MODULES.booking).
create function private.owns_upgrade(p_organization_id uuid, p_upgrade_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from public.organization_module_upgrades u
    where u.organization_id = p_organization_id and u.upgrade_id = p_upgrade_id)
$$;

create function private.deposit_for(p_service_id uuid, p_client_id uuid, p_price numeric) returns numeric
language plpgsql stable security definer set search_path = ''
as $$
declare
  s public.booking_services;
begin
  select * into s from public.booking_services where id = p_service_id;
  if not found or s.deposit_kind = 'none'
    or not private.owns_upgrade(s.organization_id, 'c0000000-0000-4000-8000-000000000008') then
    return 0;
  end if;
  if s.deposit_after_no_shows is not null and (select count(*) from public.booking_appointments a
    where a.organization_id = s.organization_id and a.client_id = p_client_id and a.status = 'no_show') < s.deposit_after_no_shows then
    return 0;
  end if;
  return case s.deposit_kind when 'fixed' then least(s.deposit_amount, p_price) else p_price end;
end
$$;

-- Before insert, after the client is linked: a booking made by the visitor (the public page is
-- the only path that sets a manage token) of a service asking a deposit waits for it, pending.
create function private.booking_appointments_ask_deposit() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.manage_token_hash is not null and private.deposit_for(new.service_id, new.client_id, new.total_price) > 0 then
    new.status := 'pending';
  end if;
  return new;
end
$$;

-- When the slot is released if unpaid: hold minutes after booking, but not later than the set
-- minutes before the start; at least 15 minutes (never after the start) so a late booking can pay.
create function private.deposit_deadline(p_organization_id uuid, p_starts_at timestamptz, p_from timestamptz) returns timestamptz
language sql stable security definer set search_path = ''
as $$
  select greatest(
    least(p_from + make_interval(mins => s.deposit_hold_minutes),
      p_starts_at - make_interval(mins => coalesce(s.deposit_hold_before_start_minutes, 0))),
    least(p_from + interval '15 minutes', p_starts_at))
  from public.booking_settings s where s.organization_id = p_organization_id
$$;

create function private.booking_appointments_after_insert() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  deposit numeric;
begin
  insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail, actor_id)
  values (new.organization_id, new.id, 'created', jsonb_build_object('status', new.status), auth.uid());
  if new.manage_token_hash is not null then
    deposit := private.deposit_for(new.service_id, new.client_id, new.total_price);
    if deposit > 0 then
      insert into public.payment_expectations (organization_id, kind, appointment_id, client_id, amount_due, memo_code, opens_at, due_at)
      values (new.organization_id, 'deposit', new.id, new.client_id, deposit, private.new_memo_code(new.organization_id),
        now(), private.deposit_deadline(new.organization_id, new.starts_at, now()));
    end if;
  end if;
  return null;
end
$$;

-- The history of status changes and moves; completing leaves the balance the appointment still
-- owes (its price less what its expectations received) and tries the payments already in.
create function private.booking_appointments_after_update() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  paid numeric;
  balance_id uuid;
begin
  if new.status is distinct from old.status then
    insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail, actor_id)
    values (new.organization_id, new.id, 'status', jsonb_build_object('status', new.status, 'from', old.status), auth.uid());
    if new.status in ('cancelled', 'no_show') then
      update public.payment_expectations set status = 'void' where appointment_id = new.id and status = 'open';
    end if;
    if new.status = 'completed' then
      update public.clients set status = 'active' where id = new.client_id and status = 'pending';
      select coalesce(sum(m.amount), 0) into paid from public.payment_matches m
      join public.payment_expectations e on e.id = m.expectation_id where e.appointment_id = new.id;
      paid := paid + coalesce((select sum(e.amount_due) from public.payment_expectations e
        where e.appointment_id = new.id and e.marked_paid_by is not null), 0);
      if new.total_price - paid > 0 and not exists (select 1 from public.payment_expectations e
        where e.appointment_id = new.id and e.status = 'open') then
        insert into public.payment_expectations (organization_id, kind, appointment_id, client_id, amount_due, memo_code, opens_at)
        values (new.organization_id, 'balance', new.id, new.client_id, new.total_price - paid,
          coalesce((select e.memo_code from public.payment_expectations e where e.appointment_id = new.id order by e.created_at limit 1),
            private.new_memo_code(new.organization_id)),
          new.created_at)
        returning id into balance_id;
        perform private.match_expectation(balance_id);
      end if;
    end if;
  end if;
  if new.starts_at is distinct from old.starts_at then
    insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail, actor_id)
    values (new.organization_id, new.id, 'moved', jsonb_build_object('from', old.starts_at, 'to', new.starts_at), auth.uid());
  end if;
  if new.client_id is distinct from old.client_id then
    update public.payment_expectations set client_id = new.client_id where appointment_id = new.id;
  end if;
  return null;
end
$$;

create trigger booking_appointments_link_client before insert on public.booking_appointments
  for each row execute function private.booking_appointments_link_client();
-- Named to run after link_client (triggers of one event run in name order).
create trigger booking_appointments_wait_for_deposit before insert on public.booking_appointments
  for each row execute function private.booking_appointments_ask_deposit();
create trigger booking_appointments_after_insert after insert on public.booking_appointments
  for each row execute function private.booking_appointments_after_insert();
create trigger booking_appointments_after_update after update on public.booking_appointments
  for each row execute function private.booking_appointments_after_update();

-- Appointments booked before this migration belong to their clients too (found or created as a
-- new booking would be), oldest first.
do $$
declare
  a record;
begin
  for a in select x.id, x.organization_id, x.guest_name, x.guest_email, x.guest_phone from public.booking_appointments x
    where x.client_id is null order by x.created_at, x.id
  loop
    update public.booking_appointments
    set client_id = private.client_for_booking(a.organization_id, a.guest_name, a.guest_email, a.guest_phone)
    where id = a.id;
  end loop;
end
$$;

-- Unpaid holds ------------------------------------------------------------------------------------

-- Releases the deposits due by p_now that nobody paid: the booking is cancelled (its slot free),
-- its history says why and the visitor is owed a mail. Another instance's rows are skipped, not
-- waited for. Returns the appointments released.
create function private.release_expired_holds(p_now timestamptz default now()) returns setof uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  e record;
  ev_id bigint;
begin
  for e in
    select x.id, x.organization_id, x.appointment_id from public.payment_expectations x
    where x.status = 'open' and x.kind = 'deposit' and x.due_at <= p_now
    order by x.due_at, x.id
    for update skip locked
  loop
    update public.payment_expectations set status = 'released' where id = e.id;
    update public.booking_appointments set status = 'cancelled' where id = e.appointment_id and status = 'pending';
    if found then
      insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail, guest_notice)
      values (e.organization_id, e.appointment_id, 'hold_released', '{}'::jsonb, 'hold_released')
      returning id into ev_id;
      return next e.appointment_id;
    end if;
  end loop;
end
$$;

-- What members do -------------------------------------------------------------------------------

-- Links a payment to an expectation by hand. Refusals: not_found, already_matched, not_open.
create function public.match_payment(p_expectation_id uuid, p_transaction_id uuid) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  e public.payment_expectations;
  t public.transactions;
begin
  select * into e from public.payment_expectations where id = p_expectation_id for update;
  select * into t from public.transactions where id = p_transaction_id;
  if e.id is null or t.id is null or e.organization_id <> t.organization_id then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(e.organization_id);
  if exists (select 1 from public.payment_matches m where m.transaction_id = t.id) then
    raise exception 'already_matched' using errcode = 'P0001';
  end if;
  if e.status <> 'open' then
    raise exception 'not_open' using errcode = 'P0001';
  end if;
  delete from private.payment_match_refusals where transaction_id = t.id and expectation_id = e.id;
  perform private.record_match(t.id, e.id, 'manual', auth.uid());
  return (select m.id from public.payment_matches m where m.transaction_id = t.id);
end
$$;

-- Undoes a match: the payment is free again (and never matched to this expectation by the engine
-- again), the expectation is open again if it is now short. Refusals: not_found.
create function public.unmatch_payment(p_match_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  m public.payment_matches;
begin
  select * into m from public.payment_matches where id = p_match_id;
  if not found then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(m.organization_id);
  perform 1 from public.payment_expectations where id = m.expectation_id for update;
  insert into private.payment_match_refusals (transaction_id, expectation_id) values (m.transaction_id, m.expectation_id)
  on conflict do nothing;
  -- The history and the expectation's state follow from the delete (payment_matches_deleted).
  delete from public.payment_matches where id = m.id;
end
$$;

-- A match that goes (undone by a member, or its payment deleted: an import undone, a row deleted
-- in the table) is written in the appointment's history, and its expectation is open again when
-- it is now short. Matches that go with their expectation or appointment leave nothing to say.
create function private.payment_matches_deleted() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  gone uuid;
begin
  insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail, actor_id)
  select e.organization_id, e.appointment_id, 'payment_unmatched', jsonb_build_object('method', o.method,
    'transaction_id', o.transaction_id, 'amount', o.amount,
    'deleted', not exists (select 1 from public.transactions t where t.id = o.transaction_id)), auth.uid()
  from old_rows o
  join public.payment_expectations e on e.id = o.expectation_id
  join public.booking_appointments a on a.id = e.appointment_id;
  for gone in select distinct o.expectation_id from old_rows o loop
    perform private.settle_expectation(gone, auth.uid());
  end loop;
  return null;
end
$$;

create trigger payment_matches_deleted after delete on public.payment_matches
  referencing old table as old_rows for each statement execute function private.payment_matches_deleted();

-- Marks an appointment paid by hand (cash, a payment outside the app): its open expectation, or a
-- new balance of what it still owes. Refusals: not_found, nothing_owed.
create function public.mark_appointment_paid(p_appointment_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  a public.booking_appointments;
  e_id uuid;
  owed numeric;
begin
  select * into a from public.booking_appointments where id = p_appointment_id for update;
  if not found then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(a.organization_id);
  select e.id into e_id from public.payment_expectations e
  where e.appointment_id = a.id and e.status = 'open' order by e.opens_at, e.id limit 1 for update;
  if e_id is null then
    owed := a.total_price - coalesce((select sum(m.amount) from public.payment_matches m
      join public.payment_expectations e on e.id = m.expectation_id where e.appointment_id = a.id), 0)
      - coalesce((select sum(e.amount_due) from public.payment_expectations e
      where e.appointment_id = a.id and e.marked_paid_by is not null), 0);
    if owed <= 0 then
      raise exception 'nothing_owed' using errcode = 'P0001';
    end if;
    insert into public.payment_expectations (organization_id, kind, appointment_id, client_id, amount_due, memo_code)
    values (a.organization_id, 'balance', a.id, a.client_id, owed, private.new_memo_code(a.organization_id))
    returning id into e_id;
  end if;
  update public.payment_expectations set status = 'paid', paid_at = now(), marked_paid_by = auth.uid() where id = e_id;
  -- The visitor who waited for their deposit to be seen is told, as when the engine matches it.
  insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail, actor_id, guest_notice)
  values (a.organization_id, a.id, 'marked_paid', jsonb_build_object('amount', (select amount_due from public.payment_expectations where id = e_id)),
    auth.uid(), case when (select kind from public.payment_expectations where id = e_id) = 'deposit' then 'payment_received' end);
  if a.status = 'pending' then
    update public.booking_appointments set status = 'confirmed' where id = a.id;
  end if;
  update public.clients set status = 'active' where id = a.client_id and status = 'pending';
end
$$;

-- Grants ---------------------------------------------------------------------------------------

revoke execute on function private.new_memo_code(uuid), private.memo_words(text), private.payer_window_days(),
  private.expectation_remaining(uuid), private.settle_expectation(uuid, uuid, numeric), private.record_match(uuid, uuid, text, uuid, boolean),
  private.match_payments(uuid, uuid[]), private.match_expectation(uuid), private.may_match(uuid, text, uuid), private.client_for_booking(uuid, text, text, text),
  private.owns_upgrade(uuid, uuid), private.deposit_for(uuid, uuid, numeric),
  private.deposit_deadline(uuid, timestamptz, timestamptz), private.release_expired_holds(timestamptz),
  private.transactions_match_inserted(), private.transactions_match_updated(), private.payment_matches_deleted(), private.booking_appointments_link_client(),
  private.booking_appointments_ask_deposit(), private.booking_appointments_after_insert(), private.booking_appointments_after_update()
from public, anon, authenticated;
revoke execute on function public.match_payment(uuid, uuid), public.unmatch_payment(uuid), public.mark_appointment_paid(uuid)
from public, anon, authenticated;
grant execute on function public.match_payment(uuid, uuid), public.unmatch_payment(uuid), public.mark_appointment_paid(uuid)
to authenticated;
