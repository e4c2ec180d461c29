-- The tax-year view per payment rail (docs/product.md, Reports: Tax year).
--
-- * transactions.tip: the tip a payer added (Venmo's "Amount (tip)" column, or typed on the form);
--   part of the amount received, shown beside it. Carried through the import's staging.
-- * transaction_monthly_rollups.fee_sum and tip_sum, kept by the same statement triggers as the
--   count and amount, so a year per rail sums at most 12 rows per category and rail whatever the
--   number of transactions.
-- * public.expense_monthly_rollups: the expenses' and refunds' counts and amounts per month, kind,
--   category and rail, kept by statement triggers on expenses, for the same reason.
-- * public.form_1099k_thresholds: when a payment app files a Form 1099-K, federal and per state,
--   one row per rule with its source. A table, not a TypeScript constant: the thresholds are
--   data that change by law (the 2025 federal change applied back to 2022), each row carries its
--   source and the day it was checked, and a correction is a migration reviewed like any other.
-- * organizations.state: the US state (or DC) the organization files in, for the state rows.

-- ---------------------------------------------------------------------------------------------
-- Tips
-- ---------------------------------------------------------------------------------------------

alter table public.transactions add column tip numeric(12, 2) check (tip >= 0);
grant insert (tip) on public.transactions to authenticated;
grant update (tip) on public.transactions to authenticated;

alter table private.import_staged_rows add column tip numeric;

-- ---------------------------------------------------------------------------------------------
-- Fee and tip sums in the monthly rollups
-- ---------------------------------------------------------------------------------------------

alter table public.transaction_monthly_rollups
  add column fee_sum numeric(18, 2) not null default 0,
  add column tip_sum numeric(18, 2) not null default 0;

update public.transaction_monthly_rollups r
set fee_sum = s.fees, tip_sum = s.tips
from (
  select t.organization_id, date_trunc('month', t.date_received::timestamp)::date as month, t.category, t.payment_method,
    coalesce(sum(t.fee), 0) as fees, coalesce(sum(t.tip), 0) as tips
  from public.transactions t
  group by 1, 2, 3, 4
) s
where r.organization_id = s.organization_id and r.month = s.month and r.category = s.category
  and r.payment_method = s.payment_method;

-- As 20261122001000_data_model.sql, with the fee (f) and tip (p) sums of each group.
create or replace function private.apply_transaction_rollups(monthly jsonb, per_client jsonb) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  orgs uuid[];
begin
  select array_agg(o.id order by o.id) into orgs
  from public.organizations o
  where o.id in (
    select x.organization_id from jsonb_to_recordset(coalesce(monthly, '[]')) as x(organization_id uuid)
    union
    select x.organization_id from jsonb_to_recordset(coalesce(per_client, '[]')) as x(organization_id uuid)
  );
  if orgs is null then
    return;
  end if;

  insert into public.organization_transaction_totals (organization_id)
  select unnest(orgs)
  on conflict (organization_id) do nothing;
  perform 1 from public.organization_transaction_totals t
  where t.organization_id = any (orgs)
  order by t.organization_id
  for update;

  if monthly is not null then
    with d as (
      select x.organization_id, sum(x.n) as n, sum(x.s) as s,
        coalesce(sum(x.n) filter (where x.category = 'matched'), 0) as matched
      from jsonb_to_recordset(monthly) as x(organization_id uuid, category public.transaction_category, n bigint, s numeric)
      group by x.organization_id
    )
    update public.organization_transaction_totals t
    set transaction_count = t.transaction_count + d.n,
        amount_sum = t.amount_sum + d.s,
        matched_count = t.matched_count + d.matched,
        updated_at = now()
    from d
    where t.organization_id = d.organization_id
      and t.organization_id = any (orgs);

    insert into public.transaction_monthly_rollups (organization_id, month, category, payment_method)
    select x.organization_id, x.month, x.category, x.payment_method
    from jsonb_to_recordset(monthly) as x(organization_id uuid, month date,
      category public.transaction_category, payment_method public.payment_method)
    where x.organization_id = any (orgs)
    order by x.organization_id, x.month, x.category, x.payment_method
    on conflict (organization_id, month, category, payment_method) do nothing;

    update public.transaction_monthly_rollups r
    set transaction_count = r.transaction_count + x.n,
        amount_sum = r.amount_sum + x.s,
        fee_sum = r.fee_sum + coalesce(x.f, 0),
        tip_sum = r.tip_sum + coalesce(x.p, 0)
    from jsonb_to_recordset(monthly) as x(organization_id uuid, month date,
      category public.transaction_category, payment_method public.payment_method, n bigint, s numeric, f numeric, p numeric)
    where r.organization_id = x.organization_id and r.month = x.month and r.category = x.category
      and r.payment_method = x.payment_method and x.organization_id = any (orgs);

    delete from public.transaction_monthly_rollups r
    using jsonb_to_recordset(monthly) as x(organization_id uuid, month date,
      category public.transaction_category, payment_method public.payment_method)
    where r.organization_id = x.organization_id and r.month = x.month and r.category = x.category
      and r.payment_method = x.payment_method and r.transaction_count = 0;
  end if;

  if per_client is not null then
    insert into public.organization_client_transaction_counts (organization_id, client_id, transaction_count)
    select x.organization_id, x.client_id, 0
    from jsonb_to_recordset(per_client) as x(organization_id uuid, client_id uuid)
    where x.organization_id = any (orgs)
    order by x.organization_id, x.client_id
    on conflict (organization_id, client_id) do nothing;

    with d as (
      select x.* from jsonb_to_recordset(per_client) as x(organization_id uuid, client_id uuid, n bigint)
      where x.organization_id = any (orgs)
    ), up as (
      update public.organization_client_transaction_counts c
      set transaction_count = c.transaction_count + d.n
      from d
      where c.organization_id = d.organization_id and c.client_id = d.client_id
      returning c.organization_id, c.transaction_count, d.n
    ), changes as (
      -- A row whose count now equals a positive delta was absent before (zero rows are deleted).
      select up.organization_id,
        count(*) filter (where up.transaction_count = up.n and up.n > 0)
          - count(*) filter (where up.transaction_count = 0) as delta
      from up
      group by up.organization_id
    )
    update public.organization_transaction_totals t
    set unique_client_count = t.unique_client_count + changes.delta
    from changes
    where t.organization_id = changes.organization_id and changes.delta <> 0;

    delete from public.organization_client_transaction_counts c
    using jsonb_to_recordset(per_client) as x(organization_id uuid, client_id uuid)
    where c.organization_id = x.organization_id and c.client_id = x.client_id and c.transaction_count = 0;
  end if;
end
$$;

create or replace function private.transactions_rollup() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  monthly jsonb;
  per_client jsonb;
begin
  if tg_op = 'INSERT' then
    select jsonb_agg(g) into monthly from (
      select t.organization_id, date_trunc('month', t.date_received::timestamp)::date as month,
        t.category, t.payment_method, count(*) as n, sum(t.amount) as s, sum(t.fee) as f, sum(t.tip) as p
      from new_rows t group by 1, 2, 3, 4
    ) g;
    select jsonb_agg(g) into per_client from (
      select t.organization_id, t.client_id, count(*) as n
      from new_rows t where t.client_id is not null group by 1, 2
    ) g;
  elsif tg_op = 'DELETE' then
    select jsonb_agg(g) into monthly from (
      select t.organization_id, date_trunc('month', t.date_received::timestamp)::date as month,
        t.category, t.payment_method, -count(*) as n, -sum(t.amount) as s, -sum(t.fee) as f, -sum(t.tip) as p
      from old_rows t group by 1, 2, 3, 4
    ) g;
    select jsonb_agg(g) into per_client from (
      select t.organization_id, t.client_id, -count(*) as n
      from old_rows t where t.client_id is not null group by 1, 2
    ) g;
  else
    -- Only changes that move a rollup figure; editing a description touches nothing.
    select jsonb_agg(g) into monthly from (
      select u.organization_id, date_trunc('month', u.date_received::timestamp)::date as month,
        u.category, u.payment_method, sum(u.sign) as n, sum(u.sign * u.amount) as s,
        coalesce(sum(u.sign * u.fee), 0) as f, coalesce(sum(u.sign * u.tip), 0) as p
      from (
        select t.organization_id, t.date_received, t.category, t.payment_method, t.amount, t.fee, t.tip, 1 as sign from new_rows t
        union all
        select t.organization_id, t.date_received, t.category, t.payment_method, t.amount, t.fee, t.tip, -1 from old_rows t
      ) u
      group by 1, 2, 3, 4
      having sum(u.sign) <> 0 or sum(u.sign * u.amount) <> 0
        or coalesce(sum(u.sign * u.fee), 0) <> 0 or coalesce(sum(u.sign * u.tip), 0) <> 0
    ) g;
    select jsonb_agg(g) into per_client from (
      select u.organization_id, u.client_id, sum(u.sign) as n
      from (
        select t.organization_id, t.client_id, 1 as sign from new_rows t where t.client_id is not null
        union all
        select t.organization_id, t.client_id, -1 from old_rows t where t.client_id is not null
      ) u
      group by 1, 2
      having sum(u.sign) <> 0
    ) g;
  end if;
  if monthly is not null or per_client is not null then
    perform private.apply_transaction_rollups(monthly, per_client);
  end if;
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Expense rollups: per organization, month, kind, category and rail (as text, '' when none), the
-- count and the amount, kept by statement triggers on expenses as the transactions' are, so a
-- year of 100,000 expenses reads at most a few hundred rows. Only the triggers write them.
-- ---------------------------------------------------------------------------------------------

create table public.expense_monthly_rollups (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  month date not null check (extract(day from month) = 1),
  kind text not null,
  category text not null,
  payment_method text not null,
  expense_count bigint not null default 0,
  amount_sum numeric(18, 2) not null default 0,
  primary key (organization_id, month, kind, category, payment_method)
);
alter table public.expense_monthly_rollups enable row level security;
revoke all on public.expense_monthly_rollups from anon, authenticated;
grant select on public.expense_monthly_rollups to authenticated;
create policy "expense_monthly_rollups: members read their organization's rollups"
  on public.expense_monthly_rollups for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

insert into public.expense_monthly_rollups (organization_id, month, kind, category, payment_method, expense_count, amount_sum)
select e.organization_id, date_trunc('month', e.spent_on::timestamp)::date, e.kind, e.category, coalesce(e.payment_method::text, ''),
  count(*), sum(e.amount)
from public.expenses e
group by 1, 2, 3, 4, 5;

-- Applies grouped deltas in key order (writers of one organization take the rows' locks in the
-- same order). Rows are created at zero and then updated; a row back at zero goes. Organizations
-- that no longer exist (a cascade from the organization's deletion) are skipped.
create function private.apply_expense_rollups(deltas jsonb) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.expense_monthly_rollups (organization_id, month, kind, category, payment_method)
  select x.organization_id, x.month, x.kind, x.category, x.payment_method
  from jsonb_to_recordset(deltas) as x(organization_id uuid, month date, kind text, category text, payment_method text)
  where exists (select 1 from public.organizations o where o.id = x.organization_id)
  order by 1, 2, 3, 4, 5
  on conflict do nothing;
  update public.expense_monthly_rollups r
  set expense_count = r.expense_count + x.n, amount_sum = r.amount_sum + x.s
  from jsonb_to_recordset(deltas) as x(organization_id uuid, month date, kind text, category text, payment_method text, n bigint, s numeric)
  where r.organization_id = x.organization_id and r.month = x.month and r.kind = x.kind and r.category = x.category
    and r.payment_method = x.payment_method;
  delete from public.expense_monthly_rollups r
  using jsonb_to_recordset(deltas) as x(organization_id uuid, month date, kind text, category text, payment_method text)
  where r.organization_id = x.organization_id and r.month = x.month and r.kind = x.kind and r.category = x.category
    and r.payment_method = x.payment_method and r.expense_count = 0;
end
$$;
revoke execute on function private.apply_expense_rollups(jsonb) from public;

create function private.expenses_rollup() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  deltas jsonb;
begin
  if tg_op = 'INSERT' then
    select jsonb_agg(g) into deltas from (
      select e.organization_id, date_trunc('month', e.spent_on::timestamp)::date as month, e.kind, e.category,
        coalesce(e.payment_method::text, '') as payment_method, count(*) as n, sum(e.amount) as s
      from new_rows e group by 1, 2, 3, 4, 5
    ) g;
  elsif tg_op = 'DELETE' then
    select jsonb_agg(g) into deltas from (
      select e.organization_id, date_trunc('month', e.spent_on::timestamp)::date as month, e.kind, e.category,
        coalesce(e.payment_method::text, '') as payment_method, -count(*) as n, -sum(e.amount) as s
      from old_rows e group by 1, 2, 3, 4, 5
    ) g;
  else
    select jsonb_agg(g) into deltas from (
      select u.organization_id, date_trunc('month', u.spent_on::timestamp)::date as month, u.kind, u.category,
        coalesce(u.payment_method::text, '') as payment_method, sum(u.sign) as n, sum(u.sign * u.amount) as s
      from (
        select e.organization_id, e.spent_on, e.kind, e.category, e.payment_method, e.amount, 1 as sign from new_rows e
        union all
        select e.organization_id, e.spent_on, e.kind, e.category, e.payment_method, e.amount, -1 from old_rows e
      ) u
      group by 1, 2, 3, 4, 5
      having sum(u.sign) <> 0 or sum(u.sign * u.amount) <> 0
    ) g;
  end if;
  if deltas is not null then
    perform private.apply_expense_rollups(deltas);
  end if;
  return null;
end
$$;
revoke execute on function private.expenses_rollup() from public;

create trigger expenses_rollup_insert after insert on public.expenses
  referencing new table as new_rows for each statement execute function private.expenses_rollup();
create trigger expenses_rollup_update after update on public.expenses
  referencing old table as old_rows new table as new_rows for each statement execute function private.expenses_rollup();
create trigger expenses_rollup_delete after delete on public.expenses
  referencing old table as old_rows for each statement execute function private.expenses_rollup();

-- ---------------------------------------------------------------------------------------------
-- Form 1099-K thresholds
-- ---------------------------------------------------------------------------------------------

create table public.form_1099k_thresholds (
  id integer generated always as identity primary key,
  -- 'US' for the federal rule, else the state's (or DC's) two-letter code.
  jurisdiction text not null check (jurisdiction ~ '^[A-Z]{2}$'),
  first_year integer not null check (first_year between 2000 and 2100),
  -- Null: still in force.
  last_year integer check (last_year >= first_year),
  min_amount numeric(12, 2) not null check (min_amount >= 0),
  -- true: the amount must reach min_amount ("$600 or more"); false: pass it ("more than $20,000").
  amount_inclusive boolean not null,
  -- Null: no count condition.
  min_count integer check (min_count >= 0),
  count_inclusive boolean not null default false,
  source_name text not null check (char_length(source_name) between 1 and 300),
  source_url text not null check (source_url ~ '^https://'),
  verified_on date not null,
  unique (jurisdiction, first_year)
);
alter table public.form_1099k_thresholds enable row level security;
revoke all on public.form_1099k_thresholds from anon, authenticated;
revoke all on sequence public.form_1099k_thresholds_id_seq from anon, authenticated;
grant select on public.form_1099k_thresholds to authenticated;
create policy "form_1099k_thresholds: signed-in users read the thresholds"
  on public.form_1099k_thresholds for select to authenticated
  using (true);

-- Each row checked against the page it cites on the day given. States that tie their threshold
-- to the federal Form 1099-MISC one (26 U.S.C. 6041(a), raised from $600 by the same 2025 law for
-- payments after 2025) end in 2025: what they require from 2026 on is left out until their
-- department says, rather than guessed. States not listed report at the federal threshold or
-- were not verified.
insert into public.form_1099k_thresholds
  (jurisdiction, first_year, last_year, min_amount, amount_inclusive, min_count, count_inclusive, source_name, source_url, verified_on)
values
  ('US', 2011, null, 20000, false, 200, false,
    'IRS Fact Sheet FS-2025-08 (One, Big, Beautiful Bill Act reinstates more than $20,000 and more than 200 transactions, from 2022 on)',
    'https://www.irs.gov/newsroom/irs-issues-faqs-on-form-1099-k-threshold-under-the-one-big-beautiful-bill-dollar-limit-reverts-to-20000',
    '2026-11-29'),
  ('MA', 2018, null, 600, true, null, false,
    'Massachusetts Department of Revenue: reporting requirements for third party settlement organizations (Form 1099-K)',
    'https://www.mass.gov/info-details/ma-reporting-requirements-for-third-party-settlement-orgs-1099-k',
    '2026-11-29'),
  ('VT', 2017, 2025, 600, true, null, false,
    'Vermont Department of Taxes: new law lowers reporting threshold for 1099-K information reporting (32 V.S.A. 5862d)',
    'https://tax.vermont.gov/news/1099-k-information-reporting',
    '2026-11-29'),
  ('VA', 2020, 2025, 600, true, null, false,
    'Virginia Tax: Tax Bulletin 20-10, reporting requirements for Form 1099-K filers with Virginia participating payees',
    'https://www.tax.virginia.gov/laws-rules-decisions/tax-bulletins/20-10',
    '2026-11-29'),
  ('IL', 2020, null, 1000, false, 3, false,
    'Illinois General Assembly, SB 119 (101st): 35 ILCS 5/703A, more than $1,000 and more than 3 transactions, from 2020',
    'https://www.ilga.gov/legislation/101/SB/10100SB0119eng.htm',
    '2026-11-29');

-- ---------------------------------------------------------------------------------------------
-- The organization's state
-- ---------------------------------------------------------------------------------------------

alter table public.organizations add column state text check (state in (
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA',
  'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR',
  'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY'
));
grant update (state) on public.organizations to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Imports carry the tip: as 20261203031000_import_set_based_plans.sql, with `tip` beside `fee`.
-- ---------------------------------------------------------------------------------------------

drop function private.import_rows_plan(uuid, uuid, private.import_staged_rows[], boolean);
create function private.import_rows_plan(org uuid, batch uuid, p_rows private.import_staged_rows[], p_commit boolean)
returns table (
  ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
  payment_method public.payment_method, raw_payer text, payer_email text, description text, state text,
  candidates integer, client_id uuid, tip numeric
)
language sql stable
-- Without a SET clause and not security definer (every name schema-qualified), so that it is
-- inlined into the security definer statements that call it and planned once with them.
as $$
  with r as materialized (
    select u.*, coalesce(lower(u.payer_email), '') as email_key,
      row_number() over (partition by u.import_key order by u.ord) as nth
    from unnest(p_rows) as u
  ),
  payers as materialized (
    select x.raw_payer, x.email_key, public.payer_key(x.raw_payer) as payer_key
    from (select distinct r.raw_payer, r.email_key from r where r.raw_payer is not null) x
  ),
  matched as materialized (
    select jsonb_object_agg(p.raw_payer || E'\x1f' || p.email_key, coalesce(
      (select jsonb_build_array(count(*), case when count(*) = 1 then min(a.client_id::text) end)
       from public.payer_aliases a where a.organization_id = org and a.alias_key = p.payer_key
       having count(*) > 0),
      (select jsonb_build_array(count(*), case when count(*) = 1 then min(x.id::text) end)
       from (
         select c.id from public.clients c where c.organization_id = org and public.payer_key(c.name) = p.payer_key
         union
         select c.id from public.clients c where p.email_key <> '' and c.organization_id = org and lower(c.email) = p.email_key
       ) x)
    )) as map
    from payers p
  )
  select r.ord, r.import_key, r.external_id, r.amount, r.fee, r.date_received, r.payment_method, r.raw_payer,
    r.payer_email, r.description,
    case
      when r.nth > 1 then 'duplicate'
      when p_commit then
        case
          when not coalesce((select true from public.import_tombstones d where d.organization_id = org and d.import_key = r.import_key limit 1), false) then 'new'
          when (select true from private.import_staged_rows e where e.batch_id = batch and e.import_key = r.import_key and e.ord < r.ord limit 1) then 'duplicate'
          else 'deleted'
        end
      when (select true from private.import_staged_rows e where e.batch_id = batch and e.import_key = r.import_key and e.ord < r.ord limit 1) then 'duplicate'
      when (select true from public.transactions t where t.organization_id = org and t.import_key = r.import_key and t.import_key is not null limit 1) then 'duplicate'
      when (select true from public.import_tombstones d where d.organization_id = org and d.import_key = r.import_key limit 1) then 'deleted'
      else 'new'
    end,
    coalesce((m.map -> (r.raw_payer || E'\x1f' || r.email_key) ->> 0)::integer, 0),
    (m.map -> (r.raw_payer || E'\x1f' || r.email_key) ->> 1)::uuid,
    -- A tip is part of the amount: anything else is not a tip the file can mean.
    case when r.tip > 0 and r.tip <= r.amount then round(r.tip, 2) end
  from r cross join matched m
$$;
revoke execute on function private.import_rows_plan(uuid, uuid, private.import_staged_rows[], boolean) from public;

create or replace function public.stage_import_rows(batch_id uuid, p_rows jsonb) returns integer
language plpgsql security definer set search_path = '' set plan_cache_mode = force_generic_plan
as $$
declare
  b public.import_batches;
  c record;
  total integer;
  chunk private.import_staged_rows[];
begin
  b := private.own_staged_batch(batch_id);
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' or jsonb_array_length(p_rows) > 5000 then
    raise exception 'invalid_batch' using errcode = 'P0001';
  end if;
  select array_agg(j) into chunk from jsonb_populate_recordset(null::private.import_staged_rows, p_rows) as j;
  if exists (select 1 from unnest(chunk) as j where j.ord is null or j.ord not between 1 and 100000) then
    raise exception 'invalid_batch' using errcode = 'P0001';
  end if;
  if b.staged_at is not null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  if b.payment_count + jsonb_array_length(p_rows) > 100000 then
    raise exception 'too_many_rows' using errcode = 'P0001';
  end if;
  with inserted as (
    insert into private.import_staged_rows (batch_id, ord, import_key, external_id, amount, fee, date_received,
      payment_method, raw_payer, payer_email, description, state, candidates, client_id, tip)
    select b.id, p.ord, p.import_key, p.external_id, p.amount, p.fee, p.date_received, p.payment_method, p.raw_payer,
      p.payer_email, p.description, p.state, p.candidates, p.client_id, p.tip
    from private.import_rows_plan(b.organization_id, b.id, chunk, false) p
    returning state, candidates
  )
  select count(*)::integer as added,
    (count(*) filter (where i.state = 'new'))::integer as n_new,
    (count(*) filter (where i.state = 'duplicate'))::integer as n_duplicate,
    (count(*) filter (where i.state = 'deleted'))::integer as n_deleted,
    (count(*) filter (where i.state = 'new' and i.candidates = 1))::integer as n_matched,
    (count(*) filter (where i.state = 'new' and i.candidates > 1))::integer as n_review,
    (count(*) filter (where i.state = 'new' and i.candidates = 0))::integer as n_unmatched
  into c from inserted i;
  update public.import_batches x set
    payment_count = x.payment_count + c.added,
    preview_new_count = x.preview_new_count + c.n_new,
    preview_duplicate_count = x.preview_duplicate_count + c.n_duplicate,
    preview_deleted_count = x.preview_deleted_count + c.n_deleted,
    preview_matched_count = x.preview_matched_count + c.n_matched,
    preview_review_count = x.preview_review_count + c.n_review,
    preview_unmatched_count = x.preview_unmatched_count + c.n_unmatched,
    worked_at = now()
  where x.id = b.id
  returning x.payment_count into total;
  return total;
end
$$;

create or replace function public.commit_import_chunk(batch_id uuid, max_rows integer)
returns table (done boolean, committed integer, total integer, created_count integer, duplicate_count integer,
  deleted_count integer, matched_count integer, review_count integer, unmatched_count integer)
language plpgsql security definer set search_path = '' set plan_cache_mode = force_generic_plan
as $$
declare
  b public.import_batches;
  n integer := least(greatest(coalesce(max_rows, 500), 1), 5000);
  c record;
  finished boolean;
  chunk private.import_staged_rows[];
begin
  select * into b from public.import_batches x where x.id = batch_id for update;
  if b.id is null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(b.organization_id);
  if b.status not in ('staged', 'committing') then
    raise exception 'already_committed' using errcode = 'P0001';
  end if;
  if b.staged_at is null then
    raise exception 'still_reading' using errcode = 'P0001';
  end if;

  select array_agg(s order by s.ord) into chunk
  from private.import_staged_rows s
  where s.batch_id = b.id and s.ord > b.commit_ord and s.ord <= b.commit_ord + n;

  with plan as materialized (
    select * from private.import_rows_plan(b.organization_id, b.id, chunk, true)
  ),
  inserted as (
    insert into public.transactions (organization_id, user_id, client_id, external_id, amount, date_received,
      category, payment_method, description, import_source, raw_payer, fee, import_batch_id, import_key, tip)
    select b.organization_id, b.user_id, p.client_id, p.external_id, p.amount, p.date_received,
      (case when p.candidates = 1 then 'matched' when p.candidates > 1 then 'review' else 'unmatched' end)::public.transaction_category,
      p.payment_method, p.description, b.source, p.raw_payer, p.fee, b.id, p.import_key, p.tip
    from plan p
    where p.state = 'new'
    order by p.ord
    on conflict (organization_id, import_key) where import_key is not null do nothing
    returning category
  )
  select 0 as last,
    (select count(*) from inserted)::integer as created,
    (select count(*) from inserted i where i.category = 'matched')::integer as matched,
    (select count(*) from inserted i where i.category = 'review')::integer as review,
    (select count(*) from inserted i where i.category = 'unmatched')::integer as unmatched,
    (select count(*) from plan p where p.state = 'deleted')::integer as deleted
  into c;

  c.last := b.commit_ord + n;
  finished := not exists (select 1 from private.import_staged_rows r where r.batch_id = b.id and r.ord > c.last);
  update public.import_batches x set
    commit_ord = c.last,
    created_count = x.created_count + c.created, matched_count = x.matched_count + c.matched,
    review_count = x.review_count + c.review, unmatched_count = x.unmatched_count + c.unmatched,
    deleted_count = x.deleted_count + c.deleted,
    worked_at = now(),
    status = case when finished then 'committed' else 'committing' end,
    committed_at = case when finished then now() end,
    staged_rows = null
  where x.id = b.id;
  if finished then
    update public.import_batches x set duplicate_count = x.payment_count - x.created_count - x.deleted_count where x.id = b.id;
  end if;
  return query
  select finished, least(x.commit_ord, x.payment_count), x.payment_count, x.created_count, x.duplicate_count, x.deleted_count,
    x.matched_count, x.review_count, x.unmatched_count
  from public.import_batches x where x.id = b.id;
end
$$;
