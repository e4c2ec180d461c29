-- Invoices (docs/product.md, Invoicing; docs/decisions/042-invoices-on-the-engine.md): what a
-- member bills a client, paid through the one matching engine (20261205001000_matching_engine.sql).
--
-- * An invoice is a draft until it is sent: drafts are edited freely (members of the organization);
--   sending (public.send_invoice) freezes it, gives it the next number of the organization
--   (private.invoice_counters: no gap, no repeat, under any concurrency: the counter row is locked
--   by the sending transaction and a failed send rolls its number back) and opens a
--   payment_expectation of kind 'invoice' with a memo code, which the engine pays as it pays
--   deposits: by code (any amount: part payments add up, an overpayment shows) or by client and
--   the exact open amount.
-- * Paid, partly paid and overdue are read, not stored (public.invoice_overview): they follow the
--   matches, an undo, and the calendar by themselves.
-- * Voiding (public.void_invoice) is refused while payments are linked: unlink them first.

-- 1 Tables ----------------------------------------------------------------------------------------

create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- Given when sent: 1, 2, 3… per organization (private.next_invoice_number).
  number integer check (number > 0),
  status text not null default 'draft' check (status in ('draft', 'sent', 'void')),
  client_id uuid,
  -- Who it was billed to, kept when sent: a client renamed or deleted later leaves the invoice as sent.
  bill_to_name text check (char_length(bill_to_name) <= 200),
  bill_to_email text check (char_length(bill_to_email) <= 320),
  -- The language of its mail and public page.
  language text not null default 'en' check (language in ('en', 'es', 'pt-BR')),
  issue_date date not null default current_date,
  due_date date not null default current_date + 14,
  notes text check (char_length(notes) <= 2000),
  -- A percentage on the total after the discount; the discount is an amount off the subtotal.
  tax_rate numeric(5, 2) not null default 0 check (tax_rate >= 0 and tax_rate <= 100),
  discount numeric(12, 2) not null default 0 check (discount >= 0),
  -- Kept by triggers from the lines, the discount and the tax.
  subtotal numeric(12, 2) not null default 0,
  total numeric(12, 2) not null default 0 check (total >= 0),
  -- Set when sent: the public page's token (its SHA-256; the token itself, sealed, in
  -- private.invoice_tokens) and the expectation the engine pays.
  public_token_hash text unique check (public_token_hash ~ '^[0-9a-f]{64}$'),
  expectation_id uuid,
  sent_at timestamptz,
  voided_at timestamptz,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, id),
  unique (organization_id, number),
  check (due_date >= issue_date),
  check (discount <= subtotal),
  check ((status = 'draft') = (number is null)),
  check ((status = 'draft') = (sent_at is null)),
  check ((status = 'void') = (voided_at is not null)),
  foreign key (organization_id, client_id) references public.clients (organization_id, id) on delete set null (client_id)
);
create index invoices_org_created_idx on public.invoices (organization_id, created_at desc, id);
create index invoices_org_due_idx on public.invoices (organization_id, due_date) where status = 'sent';
create index invoices_client_idx on public.invoices (organization_id, client_id, created_at desc);
create trigger invoices_touch before update on public.invoices
  for each row execute function public.touch_updated_at();

create table public.invoice_lines (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  invoice_id uuid not null,
  position integer not null check (position >= 0 and position < 200),
  description text not null check (char_length(btrim(description)) between 1 and 500),
  quantity numeric(12, 3) not null check (quantity > 0 and quantity <= 1000000),
  unit_price numeric(12, 2) not null check (unit_price >= 0 and unit_price <= 10000000),
  amount numeric(12, 2) generated always as (round(quantity * unit_price, 2)) stored,
  unique (invoice_id, position),
  foreign key (organization_id, invoice_id) references public.invoices (organization_id, id) on delete cascade
);

alter table public.payment_expectations
  add column invoice_id uuid,
  add constraint payment_expectations_invoice_fk foreign key (organization_id, invoice_id)
    references public.invoices (organization_id, id) on delete cascade,
  add constraint payment_expectations_invoice_kind check ((kind = 'invoice') = (invoice_id is not null));
create unique index payment_expectations_invoice_idx on public.payment_expectations (invoice_id) where invoice_id is not null;
alter table public.invoices add constraint invoices_expectation_fk foreign key (expectation_id)
  references public.payment_expectations (id) on delete set null;

create table private.invoice_counters (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  last_number integer not null check (last_number > 0)
);

-- The public page's token, sealed with the server's key (as private.booking_manage_tokens, docs/
-- decisions/041-reminder-links.md): staff can copy the link again; the database never holds it plain.
create table private.invoice_tokens (
  invoice_id uuid primary key references public.invoices (id) on delete cascade,
  sealed text not null check (char_length(sealed) <= 1000)
);
revoke all on private.invoice_counters, private.invoice_tokens from public, anon, authenticated;

-- 2 Access: members of the organization read its invoices and write its drafts --------------------

revoke all on public.invoices, public.invoice_lines from anon, authenticated;
alter table public.invoices enable row level security;
alter table public.invoice_lines enable row level security;
grant select, delete on public.invoices to authenticated;
-- Number, status, totals, token and dates of sending are written by the functions below only.
grant insert (organization_id, client_id, language, issue_date, due_date, notes, tax_rate, discount, created_by)
  on public.invoices to authenticated;
grant update (client_id, language, issue_date, due_date, notes, tax_rate, discount) on public.invoices to authenticated;
grant select, insert, update, delete on public.invoice_lines to authenticated;

create policy "invoices: members read their organization's invoices"
  on public.invoices for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "invoices: members start drafts in their organization, as themselves"
  on public.invoices for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()) and created_by = (select auth.uid()));
create policy "invoices: members edit their organization's drafts"
  on public.invoices for update to authenticated
  using (organization_id in (select public.my_organization_ids()) and status = 'draft')
  with check (organization_id in (select public.my_organization_ids()) and status = 'draft');
create policy "invoices: members delete their organization's drafts"
  on public.invoices for delete to authenticated
  using (organization_id in (select public.my_organization_ids()) and status = 'draft');

create policy "invoice_lines: members read their organization's invoice lines"
  on public.invoice_lines for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "invoice_lines: members add lines to their organization's drafts"
  on public.invoice_lines for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()));
create policy "invoice_lines: members change lines of their organization's drafts"
  on public.invoice_lines for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "invoice_lines: members remove lines of their organization's drafts"
  on public.invoice_lines for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- 3 Totals, and a sent invoice stays as sent ------------------------------------------------------

-- Lines change only on drafts (whoever writes them); the invoice's subtotal and total follow.
create function private.invoice_lines_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  target uuid;
  inv_status text;
begin
  for target in select distinct x.invoice_id from (
    select n.invoice_id from new_rows n union all select o.invoice_id from old_rows o) x
  loop
    select i.status into inv_status from public.invoices i where i.id = target;
    if not found then
      continue; -- the invoice itself is being deleted
    end if;
    if inv_status <> 'draft' then
      raise exception 'invoice_not_draft' using errcode = 'P0001';
    end if;
    update public.invoices i
    set subtotal = coalesce((select sum(l.amount) from public.invoice_lines l where l.invoice_id = target), 0)
    where i.id = target;
  end loop;
  return null;
end
$$;

create function private.invoice_lines_inserted() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if exists (select 1 from new_rows n join public.invoices i on i.id = n.invoice_id and i.status <> 'draft') then
    raise exception 'invoice_not_draft' using errcode = 'P0001';
  end if;
  update public.invoices i
  set subtotal = coalesce((select sum(l.amount) from public.invoice_lines l where l.invoice_id = i.id), 0)
  where i.id in (select n.invoice_id from new_rows n);
  return null;
end
$$;

create function private.invoice_lines_deleted() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if exists (select 1 from old_rows o join public.invoices i on i.id = o.invoice_id and i.status <> 'draft') then
    raise exception 'invoice_not_draft' using errcode = 'P0001';
  end if;
  update public.invoices i
  set subtotal = coalesce((select sum(l.amount) from public.invoice_lines l where l.invoice_id = i.id), 0)
  where i.id in (select o.invoice_id from old_rows o);
  return null;
end
$$;

create trigger invoice_lines_inserted after insert on public.invoice_lines
  referencing new table as new_rows for each statement execute function private.invoice_lines_inserted();
create trigger invoice_lines_updated after update on public.invoice_lines
  referencing new table as new_rows old table as old_rows for each statement execute function private.invoice_lines_changed();
create trigger invoice_lines_deleted after delete on public.invoice_lines
  referencing old table as old_rows for each statement execute function private.invoice_lines_deleted();

-- The total from the subtotal, the discount and the tax; once sent, only voiding (and a deleted
-- client's link going) changes an invoice.
create function private.invoices_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and old.status <> 'draft' and (
    new.number is distinct from old.number or new.language is distinct from old.language
    or new.issue_date is distinct from old.issue_date or new.due_date is distinct from old.due_date
    or new.notes is distinct from old.notes or new.tax_rate is distinct from old.tax_rate
    or new.discount is distinct from old.discount or new.subtotal is distinct from old.subtotal
    or new.bill_to_name is distinct from old.bill_to_name or new.bill_to_email is distinct from old.bill_to_email
    or (new.client_id is distinct from old.client_id and new.client_id is not null)
    or (old.status = 'void' and new.status <> 'void')) then
    raise exception 'invoice_not_draft' using errcode = 'P0001';
  end if;
  new.total := round((new.subtotal - new.discount) * (1 + new.tax_rate / 100), 2);
  return new;
end
$$;
create trigger invoices_before_write before insert or update on public.invoices
  for each row execute function private.invoices_before_write();

-- 4 Sending and voiding ---------------------------------------------------------------------------

create function private.next_invoice_number(p_organization_id uuid) returns integer
language sql volatile security definer set search_path = ''
as $$
  insert into private.invoice_counters as c (organization_id, last_number) values (p_organization_id, 1)
  on conflict (organization_id) do update set last_number = c.last_number + 1
  returning c.last_number
$$;

create function private.organization_has_module(p_organization_id uuid, p_module_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from public.organization_modules m
    where m.organization_id = p_organization_id and m.module_id = p_module_id)
$$;

-- Sends a draft: its number, its memo code and what the engine waits for; a payment of the client
-- for the exact total already in (and unmatched) pays it at once. Returns the number. Refusals:
-- not_found, module_inactive (Invoicing), invoice_not_draft, invoice_without_client (or a client
-- without a name), invoice_empty (no line, or a total of 0), invalid_token.
create function public.send_invoice(p_invoice_id uuid, p_token_hash text, p_sealed_token text) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  i public.invoices;
  c public.clients;
  given integer;
  e_id uuid;
begin
  select * into i from public.invoices where id = p_invoice_id for update;
  if not found then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(i.organization_id);
  if not private.organization_has_module(i.organization_id, 'b0000000-0000-4000-8000-000000000005') then
    raise exception 'module_inactive' using errcode = 'P0001';
  end if;
  if i.status <> 'draft' then
    raise exception 'invoice_not_draft' using errcode = 'P0001';
  end if;
  select * into c from public.clients where id = i.client_id;
  if c.id is null or btrim(coalesce(c.name, '')) = '' then
    raise exception 'invoice_without_client' using errcode = 'P0001';
  end if;
  if i.total <= 0 or not exists (select 1 from public.invoice_lines l where l.invoice_id = i.id) then
    raise exception 'invoice_empty' using errcode = 'P0001';
  end if;
  -- The sealed copy is optional: a server without a secrets key still sends (staff then cannot
  -- copy the link again).
  if p_token_hash is null or p_token_hash !~ '^[0-9a-f]{64}$'
    or (p_sealed_token is not null and char_length(p_sealed_token) not between 1 and 1000) then
    raise exception 'invalid_token' using errcode = 'P0001';
  end if;
  given := private.next_invoice_number(i.organization_id);
  insert into public.payment_expectations (organization_id, kind, invoice_id, client_id, amount_due, memo_code, opens_at)
  values (i.organization_id, 'invoice', i.id, i.client_id, i.total, private.new_memo_code(i.organization_id),
    i.issue_date::timestamptz)
  returning id into e_id;
  update public.invoices
  set status = 'sent', number = given, sent_at = now(), expectation_id = e_id, public_token_hash = p_token_hash,
    bill_to_name = c.name, bill_to_email = c.email
  where id = i.id;
  if p_sealed_token is not null then
    insert into private.invoice_tokens (invoice_id, sealed) values (i.id, p_sealed_token);
  end if;
  perform private.match_expectation(e_id);
  return given;
end
$$;

-- Voids a sent invoice nobody has paid: what the engine waited for goes; its number stays used.
-- Refusals: not_found, invoice_is_draft (a draft is deleted instead), invoice_void (already),
-- invoice_has_payments (unlink them first).
create function public.void_invoice(p_invoice_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  i public.invoices;
begin
  select * into i from public.invoices where id = p_invoice_id for update;
  if not found then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(i.organization_id);
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

-- Marks a sent invoice paid by hand (cash, a payment outside the app): its balance counts as
-- received. Refusals: not_found, invoice_not_open (a draft, void, or already paid).
create function public.mark_invoice_paid(p_invoice_id uuid) returns void
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
  update public.payment_expectations set status = 'paid', paid_at = now(), marked_paid_by = auth.uid()
  where id = i.expectation_id and status = 'open' and i.status = 'sent';
  if not found then
    raise exception 'invoice_not_open' using errcode = 'P0001';
  end if;
end
$$;

-- The sealed token of a sent invoice's public page, for its organization's members (to copy the
-- link again); null for a draft.
create function public.invoice_sealed_token(p_invoice_id uuid) returns text
language sql stable security definer set search_path = ''
as $$
  select t.sealed from private.invoice_tokens t join public.invoices i on i.id = t.invoice_id
  where t.invoice_id = p_invoice_id and i.organization_id in (select public.my_organization_ids())
$$;

-- 5 What an invoice's state is ---------------------------------------------------------------------

-- Each invoice with what it received and its state: draft, sent, partly_paid, paid, overdue, void.
-- Overdue: sent, short, and past its due date in the organization's zone. Read with the reader's
-- rights (security_invoker): the tables' policies apply.
create view public.invoice_overview with (security_invoker = true) as
select i.*,
  x.amount_paid,
  greatest(i.total - x.amount_paid, 0)::numeric(12, 2) as balance,
  greatest(x.amount_paid - i.total, 0)::numeric(12, 2) as overpaid,
  e.memo_code,
  case
    when i.status in ('draft', 'void') then i.status
    when e.status = 'paid' or x.amount_paid >= i.total then 'paid'
    when i.due_date < (now() at time zone coalesce(
      (select s.timezone from public.booking_settings s where s.organization_id = i.organization_id), 'UTC'))::date then 'overdue'
    when x.amount_paid > 0 then 'partly_paid'
    else 'sent'
  end as state
from public.invoices i
left join public.payment_expectations e on e.id = i.expectation_id
cross join lateral (
  -- Marked paid by hand, the rest of the total counts as received.
  select (case when e.marked_paid_by is not null then greatest(i.total, matched.amount) else matched.amount end)::numeric(12, 2)
    as amount_paid
  from (select coalesce(sum(m.amount), 0) as amount from public.payment_matches m where m.expectation_id = i.expectation_id) matched
) x;
revoke all on public.invoice_overview from anon, authenticated;
grant select on public.invoice_overview to authenticated;

revoke execute on function private.invoice_lines_changed(), private.invoice_lines_inserted(), private.invoice_lines_deleted(),
  private.invoices_before_write(), private.next_invoice_number(uuid), private.organization_has_module(uuid, uuid)
  from public, anon, authenticated;
revoke execute on function public.send_invoice(uuid, text, text), public.void_invoice(uuid), public.mark_invoice_paid(uuid),
  public.invoice_sealed_token(uuid) from public, anon, authenticated;
grant execute on function public.send_invoice(uuid, text, text), public.void_invoice(uuid), public.mark_invoice_paid(uuid),
  public.invoice_sealed_token(uuid) to authenticated;
