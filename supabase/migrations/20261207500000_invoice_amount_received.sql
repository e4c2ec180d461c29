-- What an invoice received, kept on the invoice (docs/decisions/042-invoices-on-the-engine.md,
-- "What was received is stored"; bench/invoices-list.ts). public.invoice_overview summed
-- payment_matches for every invoice it read, so a filter on state (sent, partly paid, overdue,
-- paid) and the dashboard's open and overdue totals read every sent invoice of the organization.
--
-- * invoices.amount_paid: what the invoice received: the sum of its matches, or its whole total
--   when its expectation is paid by hand (marked paid: cash, a payment outside the app), as the
--   view counted it. Nobody writes it (no column grant): triggers keep it, in the transaction that
--   changes a match or an expectation's status, whatever the path (the engine's statement-level
--   triggers on transactions, a manual link, an undo, a payment or an import deleted, marked paid).
-- * Each recount locks the invoice's expectation first (the lock every path that pays or unpays it
--   already holds), then sums in a statement of its own: two transactions changing one invoice's
--   matches at once recount one after the other, the second seeing the first's rows. Voiding takes
--   the same order (expectation, then invoice), so a void and a payment arriving at once queue
--   rather than deadlock.
-- * The view reads the column (same columns, same meaning) and the states are said on the invoice
--   alone: open = sent and amount_paid < total (partial indexes of the few rows still owed);
--   overdue = open and past its due date in the organization's zone; partly paid = open, something
--   received, not overdue; sent = open, nothing received, not overdue; paid = sent and
--   amount_paid >= total.

-- 1 The column -------------------------------------------------------------------------------------

alter table public.invoices add column amount_paid numeric(12, 2) not null default 0 check (amount_paid >= 0);

-- The recount of the invoices of the given expectations (others' kinds are skipped).
create function private.recount_invoice_amounts(p_expectation_ids uuid[]) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if p_expectation_ids is null or cardinality(p_expectation_ids) = 0 then
    return;
  end if;
  -- Held already on every path that pays or unpays an expectation; the sum below is a new
  -- statement, so it sees every match committed by a transaction that held the lock before.
  perform 1 from public.payment_expectations e
  where e.id = any (p_expectation_ids) and e.kind = 'invoice'
  order by e.id
  for update;
  update public.invoices i
  set amount_paid = case when x.status = 'paid' then greatest(i.total, x.matched) else x.matched end
  from (
    select e.id, e.invoice_id, e.status,
      coalesce((select sum(m.amount) from public.payment_matches m where m.expectation_id = e.id), 0) as matched
    from public.payment_expectations e
    where e.id = any (p_expectation_ids) and e.kind = 'invoice'
  ) x
  where i.id = x.invoice_id and i.expectation_id = x.id
    and i.amount_paid is distinct from (case when x.status = 'paid' then greatest(i.total, x.matched) else x.matched end);
end
$$;

create function private.payment_matches_recount_inserted() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.recount_invoice_amounts(array(select distinct n.expectation_id from new_rows n));
  return null;
end
$$;

create function private.payment_matches_recount_updated() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  -- Only a changed amount or expectation counts (a statement trigger with transition tables
  -- cannot name columns).
  perform private.recount_invoice_amounts(array(
    select x.expectation_id from new_rows n join old_rows o on o.id = n.id
    cross join lateral (values (n.expectation_id), (o.expectation_id)) x (expectation_id)
    where n.amount <> o.amount or n.expectation_id <> o.expectation_id));
  return null;
end
$$;

create function private.payment_matches_recount_deleted() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.recount_invoice_amounts(array(select distinct o.expectation_id from old_rows o));
  return null;
end
$$;

-- Paid (by the engine or by hand), open again after an undo, void.
create function private.payment_expectations_recount() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.recount_invoice_amounts(array[new.id]);
  return null;
end
$$;

-- The expectation gone (its row deleted): nothing received, as the view read it.
create function private.invoices_expectation_gone() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  new.amount_paid := 0;
  return new;
end
$$;

create trigger payment_matches_recount_inserted after insert on public.payment_matches
  referencing new table as new_rows for each statement execute function private.payment_matches_recount_inserted();
create trigger payment_matches_recount_updated after update on public.payment_matches
  referencing old table as old_rows new table as new_rows for each statement execute function private.payment_matches_recount_updated();
-- Named to fire after payment_matches_deleted (statement triggers of one event fire in name
-- order), which settles the expectation (and locks it) first.
create trigger payment_matches_recount_deleted after delete on public.payment_matches
  referencing old table as old_rows for each statement execute function private.payment_matches_recount_deleted();
create trigger payment_expectations_recount after update of status, marked_paid_by on public.payment_expectations
  for each row when (new.kind = 'invoice' and (old.status is distinct from new.status or old.marked_paid_by is distinct from new.marked_paid_by))
  execute function private.payment_expectations_recount();
create trigger invoices_expectation_gone before update of expectation_id on public.invoices
  for each row when (old.expectation_id is not null and new.expectation_id is null)
  execute function private.invoices_expectation_gone();

-- What the invoices sent before this migration received.
update public.invoices i
set amount_paid = case when e.status = 'paid' then greatest(i.total, x.matched) else x.matched end
from public.payment_expectations e
cross join lateral (select coalesce(sum(m.amount), 0) as matched from public.payment_matches m where m.expectation_id = e.id) x
where e.id = i.expectation_id and e.kind = 'invoice'
  and (case when e.status = 'paid' then greatest(i.total, x.matched) else x.matched end) <> 0;

-- 2 The indexes of the states --------------------------------------------------------------------

-- Still owed (sent, partly paid, overdue): by due date (overdue, the dashboard's sums: index only),
-- and newest first (the list's page of an open state).
create index invoices_open_due_idx on public.invoices (organization_id, due_date) include (amount_paid, total)
  where status = 'sent' and amount_paid < total;
create index invoices_open_created_idx on public.invoices (organization_id, created_at desc, id desc) include (due_date, amount_paid)
  where status = 'sent' and amount_paid < total;
-- Paid, newest first (the list's page and its count).
create index invoices_paid_created_idx on public.invoices (organization_id, created_at desc, id desc)
  where status = 'sent' and amount_paid >= total;

-- 3 The view reads the column ------------------------------------------------------------------------

create or replace view public.invoice_overview with (security_invoker = true) as
select i.id, i.organization_id, i.number, i.status, i.client_id, i.bill_to_name, i.bill_to_email, i.language,
  i.issue_date, i.due_date, i.notes, i.tax_rate, i.discount, i.subtotal, i.total, i.public_token_hash,
  i.expectation_id, i.sent_at, i.voided_at, i.created_by, i.created_at, i.updated_at,
  i.amount_paid,
  greatest(i.total - i.amount_paid, 0)::numeric(12, 2) as balance,
  greatest(i.amount_paid - i.total, 0)::numeric(12, 2) as overpaid,
  e.memo_code,
  case
    when i.status in ('draft', 'void') then i.status
    when i.amount_paid >= i.total then 'paid'
    when i.due_date < (now() at time zone coalesce(
      (select s.timezone from public.booking_settings s where s.organization_id = i.organization_id), 'UTC'))::date then 'overdue'
    when i.amount_paid > 0 then 'partly_paid'
    else 'sent'
  end as state
from public.invoices i
left join public.payment_expectations e on e.id = i.expectation_id;

-- 4 Voiding locks as the engine does: the expectation, then the invoice -----------------------------

-- As in 20261206010000_invoices.sql, but the expectation is locked before the invoice (the order of
-- the engine, which locks the expectation and then writes the invoice's amount received).
create or replace function public.void_invoice(p_invoice_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  i public.invoices;
begin
  select * into i from public.invoices where id = p_invoice_id;
  if not found then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(i.organization_id);
  perform 1 from public.payment_expectations e where e.id = i.expectation_id for update;
  select * into i from public.invoices where id = p_invoice_id for update;
  if i.status = 'draft' then
    raise exception 'invoice_is_draft' using errcode = 'P0001';
  end if;
  if i.status = 'void' then
    raise exception 'invoice_void' using errcode = 'P0001';
  end if;
  if exists (select 1 from public.payment_matches m where m.expectation_id = i.expectation_id)
    or exists (select 1 from public.payment_expectations e where e.id = i.expectation_id and e.marked_paid_by is not null) then
    raise exception 'invoice_has_payments' using errcode = 'P0001';
  end if;
  update public.payment_expectations set status = 'void' where id = i.expectation_id and status = 'open';
  update public.invoices set status = 'void', voided_at = now() where id = i.id;
end
$$;

revoke execute on function private.recount_invoice_amounts(uuid[]), private.payment_matches_recount_inserted(),
  private.payment_matches_recount_updated(), private.payment_matches_recount_deleted(), private.payment_expectations_recount(),
  private.invoices_expectation_gone()
  from public, anon, authenticated;
