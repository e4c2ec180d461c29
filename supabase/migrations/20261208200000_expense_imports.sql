-- Expense Tracking (docs/product.md, Expense Tracking): the outgoing rows of an imported bank or
-- payment-app file become expenses (or refunds) while the organization has the module, and the
-- private Supabase Storage bucket of receipts.
--
-- * private.import_expense_rows: the outgoing rows of a staged batch, written as the file is read
--   (public.stage_import_expenses, only while the module is active: without it outgoing rows stay
--   ignored, as before). They go with their batch (a discarded preview deletes it).
-- * public.commit_import_expenses: once the batch is committed, its rows become public.expenses
--   with the batch's id and the transactions' dedupe key (import_key, unique per organization),
--   so a file read twice, or two files that overlap, add each expense once.
-- * public.undo_import_expenses: an undone batch removes the expenses it added that nobody has
--   edited since (as undo_import_chunk does for transactions).
-- * public.import_expense_counts: per batch of the caller's organizations, the outgoing rows found
--   and the expenses it added (the import's preview and history say both).
-- Refusals: batch_not_found, not_member.

create table private.import_expense_rows (
  batch_id uuid not null references public.import_batches (id) on delete cascade,
  ord integer not null,
  kind text not null check (kind in ('expense', 'refund')),
  spent_on date not null,
  amount numeric(12, 2) not null check (amount > 0 and amount <= 99999999.99),
  fee numeric(12, 2) check (fee >= 0),
  vendor text not null check (char_length(btrim(vendor)) between 1 and 200),
  payment_method public.payment_method,
  note text check (char_length(note) <= 2000),
  import_key text not null check (char_length(import_key) <= 300),
  external_id text check (char_length(external_id) <= 200),
  primary key (batch_id, ord)
);
alter table private.import_expense_rows enable row level security;
revoke all on private.import_expense_rows from public, anon, authenticated;


-- The list always filters by kind (expenses, or refunds apart) and sorts by date; the monthly profit
-- sums amounts and fees of a range of dates: one index serves both, without reading the table.
create index expenses_org_kind_spent_idx on public.expenses (organization_id, kind, spent_on desc, id desc) include (amount, fee);

create function public.stage_import_expenses(p_batch_id uuid, p_rows jsonb) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  b public.import_batches;
  staged integer;
begin
  select * into b from public.import_batches where id = p_batch_id;
  if not found then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(b.organization_id);
  if b.status <> 'staged'
    or not private.organization_has_module(b.organization_id, 'b0000000-0000-4000-8000-000000000009') then
    return 0;
  end if;
  insert into private.import_expense_rows (batch_id, ord, kind, spent_on, amount, fee, vendor, payment_method, note, import_key, external_id)
  select p_batch_id, r.ord, r.kind, r.spent_on, r.amount, nullif(r.fee, 0), btrim(r.vendor), r.payment_method,
    nullif(btrim(r.note), ''), r.import_key, nullif(btrim(r.external_id), '')
  from jsonb_to_recordset(p_rows) as r (ord integer, kind text, spent_on date, amount numeric, fee numeric, vendor text,
    payment_method public.payment_method, note text, import_key text, external_id text)
  on conflict (batch_id, ord) do nothing;
  get diagnostics staged = row_count;
  return staged;
end
$$;

create function public.commit_import_expenses(p_batch_id uuid) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  b public.import_batches;
  added integer;
begin
  select * into b from public.import_batches where id = p_batch_id;
  if not found then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(b.organization_id);
  if b.status <> 'committed'
    or not private.organization_has_module(b.organization_id, 'b0000000-0000-4000-8000-000000000009') then
    return 0;
  end if;
  insert into public.expenses (organization_id, kind, spent_on, amount, fee, vendor, category, payment_method, note,
    import_source, import_batch_id, import_key, external_id, created_by)
  select b.organization_id, r.kind, r.spent_on, r.amount, r.fee, r.vendor, 'other',
    r.payment_method, r.note,
    case when b.source in ('venmo', 'paypal', 'cashapp', 'chase', 'bofa', 'generic', 'email') then b.source end,
    p_batch_id, r.import_key, r.external_id, (select auth.uid())
  from private.import_expense_rows r
  where r.batch_id = p_batch_id
  order by r.ord
  on conflict (organization_id, import_key) where import_key is not null do nothing;
  get diagnostics added = row_count;
  return added;
end
$$;

create function public.undo_import_expenses(p_batch_id uuid) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  b public.import_batches;
  removed integer;
begin
  select * into b from public.import_batches where id = p_batch_id;
  if not found then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(b.organization_id);
  delete from public.expenses e
  where e.import_batch_id = p_batch_id and e.organization_id = b.organization_id and e.updated_at = e.created_at;
  get diagnostics removed = row_count;
  return removed;
end
$$;

create function public.import_expense_counts(p_batch_ids uuid[])
returns table (batch_id uuid, found integer, added integer)
language sql stable security definer set search_path = ''
as $$
  select b.id,
    (select count(*)::int from private.import_expense_rows r where r.batch_id = b.id),
    (select count(*)::int from public.expenses e where e.import_batch_id = b.id and e.organization_id = b.organization_id)
  from public.import_batches b
  where b.id = any (p_batch_ids)
    and b.organization_id in (select public.my_organization_ids())
$$;

revoke all on function public.stage_import_expenses(uuid, jsonb), public.commit_import_expenses(uuid),
  public.undo_import_expenses(uuid), public.import_expense_counts(uuid[]) from public, anon;
grant execute on function public.stage_import_expenses(uuid, jsonb), public.commit_import_expenses(uuid),
  public.undo_import_expenses(uuid), public.import_expense_counts(uuid[]) to authenticated;

-- Receipts on Supabase Storage: a private bucket (no policy: only the server's service role reads
-- and writes it, after its own checks; docs/security.md, Receipts). Skipped without a storage schema.
do $$
begin
  if to_regclass('storage.buckets') is null then
    raise notice 'no storage schema (not a Supabase project): receipts bucket skipped';
    return;
  end if;
  execute $sql$
    insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
    values ('receipts', 'receipts', false, 10485760, array['image/jpeg', 'image/png', 'image/webp', 'application/pdf'])
    on conflict (id) do update set public = false, file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types
  $sql$;
end
$$;
