-- Expenses and refunds (docs/product.md, Expense Tracking; the tax-year view): the money an
-- organization pays out, so profit and the tax year can be read beside what it received.
--
-- * kind 'expense': a business cost (typed by a member, or an outgoing row of a bank or payment-app
--   file). kind 'refund': money sent back to a payer through a payment app (PayPal "Payment
--   Refund", Venmo and Cash App refunds); the tax-year view lists refunds per rail and leaves them
--   out of the expense totals.
-- * payment_method is the rail the money left by (null when unknown, as for a typed cash expense).
-- * fee is what the source charged, read from the file's fee column only, never estimated.
-- * Imported rows carry import_batch_id and import_key, with the transactions' dedupe key format
--   (20261123004000_imports.sql): one row per key per organization, so a file read twice adds nothing.
-- * A receipt (photo or PDF) is a key in the storage port, re-encoded on upload.

create table public.expenses (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  kind text not null default 'expense' check (kind in ('expense', 'refund')),
  spent_on date not null,
  amount numeric(12, 2) not null check (amount > 0 and amount <= 99999999.99),
  fee numeric(12, 2) check (fee >= 0),
  vendor text not null check (char_length(btrim(vendor)) between 1 and 200),
  category text not null default 'other' check (category in ('advertising', 'supplies', 'rent', 'utilities',
    'software', 'travel', 'meals', 'fees', 'contractors', 'equipment', 'insurance', 'taxes', 'other')),
  payment_method public.payment_method,
  note text check (char_length(note) <= 2000),
  receipt_key text check (char_length(receipt_key) <= 300),
  receipt_type text check (receipt_type in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
  import_source text check (import_source in ('venmo', 'paypal', 'cashapp', 'chase', 'bofa', 'generic', 'email')),
  import_batch_id uuid references public.import_batches (id) on delete set null,
  import_key text check (char_length(import_key) <= 300),
  external_id text check (char_length(external_id) <= 200),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, id),
  check ((receipt_key is null) = (receipt_type is null))
);
create index expenses_org_spent_idx on public.expenses (organization_id, spent_on desc, id);
create unique index expenses_org_import_key_idx on public.expenses (organization_id, import_key) where import_key is not null;
create index expenses_batch_idx on public.expenses (import_batch_id) where import_batch_id is not null;
create trigger expenses_touch before update on public.expenses
  for each row execute function public.touch_updated_at();

alter table public.expenses enable row level security;
revoke all on public.expenses from anon, authenticated;
grant select, delete on public.expenses to authenticated;
-- Import columns are written by the importer's functions (security definer), not by members.
grant insert (organization_id, kind, spent_on, amount, vendor, category, payment_method, note, receipt_key, receipt_type, created_by)
  on public.expenses to authenticated;
grant update (kind, spent_on, amount, vendor, category, payment_method, note, receipt_key, receipt_type)
  on public.expenses to authenticated;

create policy "expenses: members read their organization's expenses"
  on public.expenses for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "expenses: members add expenses to their organization, as themselves"
  on public.expenses for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()) and created_by = (select auth.uid()));
create policy "expenses: members edit their organization's expenses"
  on public.expenses for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "expenses: members delete their organization's expenses"
  on public.expenses for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));
