-- Advanced Analytics (docs/product.md, Reports: Advanced Analytics): what a client paid per
-- month, each client's first month and totals, and the retention of each cohort of clients, kept
-- by statement triggers on transactions beside transaction_monthly_rollups, so the analytics
-- screen reads a few thousand rows whatever the number of transactions.
--
-- client_payment_months   one row per client and month with a payment (count and amount);
-- client_payment_years    the same per calendar year, so the top clients of a range read one row
--                         per client for each whole year in it rather than twelve;
-- client_payment_totals   one row per client with a payment: first month, count and amount;
-- client_cohort_rollups   per first month (the cohort) and month offset 0..12, how many of the
--                         cohort's clients paid in that month.
--
-- A payment without a client counts in none of them. Moving a payment to another client (the
-- matching engine, a merge, a client's deletion setting client_id to null), to another month,
-- or changing its amount is an update the triggers follow like any other.

-- Counts and amounts change in place by signed deltas (an upsert checks its candidate row, which
-- may be negative, against a check constraint), and a row that falls to zero is deleted by the
-- same trigger, so no count here is ever left at or below zero.
create table public.client_payment_months (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  client_id uuid not null,
  month date not null check (extract(day from month) = 1),
  transaction_count bigint not null,
  amount_sum numeric(18, 2) not null,
  primary key (organization_id, client_id, month)
);
-- The top clients of a range of whole months read this index only.
create index client_payment_months_org_month_idx on public.client_payment_months (organization_id, month)
  include (client_id, transaction_count, amount_sum);

-- Keyed by year first: the top clients of a range read one year's rows through it.
create table public.client_payment_years (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  year date not null check (extract(month from year) = 1 and extract(day from year) = 1),
  client_id uuid not null,
  transaction_count bigint not null,
  amount_sum numeric(18, 2) not null,
  primary key (organization_id, year, client_id) include (transaction_count, amount_sum)
);

create table public.client_payment_totals (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  client_id uuid not null,
  first_month date not null check (extract(day from first_month) = 1),
  transaction_count bigint not null check (transaction_count > 0),
  amount_sum numeric(18, 2) not null,
  primary key (organization_id, client_id)
);
-- The top clients of all time.
create index client_payment_totals_org_amount_idx on public.client_payment_totals (organization_id, amount_sum desc, client_id);

create table public.client_cohort_rollups (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  cohort_month date not null check (extract(day from cohort_month) = 1),
  month_offset smallint not null check (month_offset between 0 and 12),
  client_count bigint not null,
  primary key (organization_id, cohort_month, month_offset)
);

-- The days at the edges of a day-precise range (this month so far, a range from the 15th) are
-- read from transactions: with the columns the aggregates need in the index, they are read from
-- it alone (an index-only scan), not from the table's pages, where one month's payments are spread
-- over thousands of pages. The Reports overview's edge days use it too.
create index transactions_org_date_figures_idx on public.transactions (organization_id, date_received)
  include (client_id, amount, payment_method, category);

-- What a statement changed, per client and month; and a cell of the cohort table. Passed as arrays
-- between the functions below (unnest reads them without parsing, unlike JSON).
create type private.client_month_delta as (organization_id uuid, client_id uuid, month date, n bigint, s numeric);
create type private.cohort_cell as (organization_id uuid, cohort_month date, month_offset int, n bigint);

-- What the clients named in `deltas` add to the cohort table as the two tables above stand now:
-- for each client, one per month with a payment among the 13 months from its first.
create function private.client_cohort_cells(deltas private.client_month_delta[]) returns private.cohort_cell[]
language sql stable security definer set search_path = ''
as $$
  select coalesce(array_agg(row(g.organization_id, g.cohort_month, g.month_offset, g.n)::private.cohort_cell), '{}')
  from (
    select f.organization_id, f.first_month as cohort_month,
      ((extract(year from m.month) - extract(year from f.first_month)) * 12
        + extract(month from m.month) - extract(month from f.first_month))::int as month_offset,
      count(*) as n
    from (select distinct d.organization_id, d.client_id from unnest(deltas) d) c
    join public.client_payment_totals f on f.organization_id = c.organization_id and f.client_id = c.client_id
    join public.client_payment_months m on m.organization_id = f.organization_id and m.client_id = f.client_id
      and m.month >= f.first_month and m.month < (f.first_month + interval '13 months')::date
    group by 1, 2, 3
  ) g
$$;

-- Applies grouped per-client, per-month deltas: the cohort cells of the clients touched are taken
-- away, their months and totals changed, and their new cells added. Writers of one organization
-- already queue on its organization_transaction_totals row (the rollups trigger, which fires
-- first, locks it); it is locked here too, for a statement that moves no rollup count.
create function private.apply_client_payment_rollups(deltas private.client_month_delta[]) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  orgs uuid[];
  before private.cohort_cell[];
  after private.cohort_cell[];
begin
  select array_agg(o.id order by o.id) into orgs
  from public.organizations o
  where o.id in (select d.organization_id from unnest(deltas) d);
  if orgs is null then
    return;
  end if;
  perform 1 from public.organization_transaction_totals t
  where t.organization_id = any (orgs)
  order by t.organization_id
  for update;

  before := private.client_cohort_cells(deltas);

  insert into public.client_payment_months as m (organization_id, client_id, month, transaction_count, amount_sum)
  select d.organization_id, d.client_id, d.month, d.n, d.s
  from unnest(deltas) d
  where d.organization_id = any (orgs)
  order by 1, 2, 3
  on conflict (organization_id, client_id, month) do update
    set transaction_count = m.transaction_count + excluded.transaction_count, amount_sum = m.amount_sum + excluded.amount_sum;

  delete from public.client_payment_months m
  using unnest(deltas) d
  where m.organization_id = d.organization_id and m.client_id = d.client_id and m.month = d.month
    and d.n < 0 and m.transaction_count = 0;

  insert into public.client_payment_years as y (organization_id, year, client_id, transaction_count, amount_sum)
  select d.organization_id, date_trunc('year', d.month)::date, d.client_id, sum(d.n), sum(d.s)
  from unnest(deltas) d
  where d.organization_id = any (orgs)
  group by 1, 2, 3
  having sum(d.n) <> 0 or sum(d.s) <> 0
  order by 1, 2, 3
  on conflict (organization_id, year, client_id) do update
    set transaction_count = y.transaction_count + excluded.transaction_count, amount_sum = y.amount_sum + excluded.amount_sum;

  delete from public.client_payment_years y
  using (select distinct d.organization_id, date_trunc('year', d.month)::date as year, d.client_id from unnest(deltas) d where d.n < 0) d
  where y.organization_id = d.organization_id and y.year = d.year and y.client_id = d.client_id and y.transaction_count = 0;

  -- Each touched client's totals again, from its months (a few dozen rows a client).
  with touched as (
    select distinct d.organization_id, d.client_id
    from unnest(deltas) d
    where d.organization_id = any (orgs)
  ), fresh as (
    select t.organization_id, t.client_id, min(m.month) as first_month,
      sum(m.transaction_count) as n, sum(m.amount_sum) as s
    from touched t
    join public.client_payment_months m on m.organization_id = t.organization_id and m.client_id = t.client_id
    group by 1, 2
  ), gone as (
    delete from public.client_payment_totals f
    using touched t
    where f.organization_id = t.organization_id and f.client_id = t.client_id
      and not exists (select 1 from fresh where fresh.organization_id = t.organization_id and fresh.client_id = t.client_id)
  )
  insert into public.client_payment_totals as f (organization_id, client_id, first_month, transaction_count, amount_sum)
  select organization_id, client_id, first_month, n, s from fresh
  order by 1, 2
  on conflict (organization_id, client_id) do update
    set first_month = excluded.first_month, transaction_count = excluded.transaction_count, amount_sum = excluded.amount_sum
    where (f.first_month, f.transaction_count, f.amount_sum) is distinct from (excluded.first_month, excluded.transaction_count, excluded.amount_sum);

  after := private.client_cohort_cells(deltas);

  insert into public.client_cohort_rollups as r (organization_id, cohort_month, month_offset, client_count)
  select x.organization_id, x.cohort_month, x.month_offset, sum(x.n)
  from (
    select a.organization_id, a.cohort_month, a.month_offset, a.n from unnest(after) a
    union all
    select b.organization_id, b.cohort_month, b.month_offset, -b.n from unnest(before) b
  ) x
  group by 1, 2, 3
  having sum(x.n) <> 0
  order by 1, 2, 3
  on conflict (organization_id, cohort_month, month_offset) do update
    set client_count = r.client_count + excluded.client_count;

  -- Only a cell the clients were in before can have fallen to zero.
  delete from public.client_cohort_rollups r
  using unnest(before) b
  where r.organization_id = b.organization_id and r.cohort_month = b.cohort_month and r.month_offset = b.month_offset
    and r.client_count = 0;
end
$$;

-- One statement trigger per event, as transactions_rollup: rows grouped per client and month
-- first. Named after transactions_rollup_* (statement triggers of one event fire in name order,
-- and "rollups" sorts after "rollup_") and before transactions_settle_*, whose matches update
-- the rows just counted.
create function private.transactions_client_rollups() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  deltas private.client_month_delta[];
begin
  if tg_op = 'INSERT' then
    select array_agg(row(g.organization_id, g.client_id, g.month, g.n, g.s)::private.client_month_delta) into deltas from (
      select t.organization_id, t.client_id, date_trunc('month', t.date_received::timestamp)::date as month,
        count(*) as n, sum(t.amount) as s
      from new_rows t where t.client_id is not null group by 1, 2, 3
    ) g;
  elsif tg_op = 'DELETE' then
    select array_agg(row(g.organization_id, g.client_id, g.month, g.n, g.s)::private.client_month_delta) into deltas from (
      select t.organization_id, t.client_id, date_trunc('month', t.date_received::timestamp)::date as month,
        -count(*) as n, -sum(t.amount) as s
      from old_rows t where t.client_id is not null group by 1, 2, 3
    ) g;
  else
    select array_agg(row(g.organization_id, g.client_id, g.month, g.n, g.s)::private.client_month_delta) into deltas from (
      select u.organization_id, u.client_id, date_trunc('month', u.date_received::timestamp)::date as month,
        sum(u.sign) as n, sum(u.sign * u.amount) as s
      from (
        select t.organization_id, t.client_id, t.date_received, t.amount, 1 as sign from new_rows t where t.client_id is not null
        union all
        select t.organization_id, t.client_id, t.date_received, t.amount, -1 from old_rows t where t.client_id is not null
      ) u
      group by 1, 2, 3
      having sum(u.sign) <> 0 or sum(u.sign * u.amount) <> 0
    ) g;
  end if;
  if deltas is not null then
    perform private.apply_client_payment_rollups(deltas);
  end if;
  return null;
end
$$;

create trigger transactions_rollups_clients_insert after insert on public.transactions
  referencing new table as new_rows for each statement execute function private.transactions_client_rollups();
create trigger transactions_rollups_clients_update after update on public.transactions
  referencing old table as old_rows new table as new_rows for each statement execute function private.transactions_client_rollups();
create trigger transactions_rollups_clients_delete after delete on public.transactions
  referencing old table as old_rows for each statement execute function private.transactions_client_rollups();

-- The payments already there.
insert into public.client_payment_months (organization_id, client_id, month, transaction_count, amount_sum)
select t.organization_id, t.client_id, date_trunc('month', t.date_received::timestamp)::date, count(*), sum(t.amount)
from public.transactions t
where t.client_id is not null
group by 1, 2, 3;

insert into public.client_payment_years (organization_id, year, client_id, transaction_count, amount_sum)
select m.organization_id, date_trunc('year', m.month)::date, m.client_id, sum(m.transaction_count), sum(m.amount_sum)
from public.client_payment_months m
group by 1, 2, 3;

insert into public.client_payment_totals (organization_id, client_id, first_month, transaction_count, amount_sum)
select m.organization_id, m.client_id, min(m.month), sum(m.transaction_count), sum(m.amount_sum)
from public.client_payment_months m
group by 1, 2;

insert into public.client_cohort_rollups (organization_id, cohort_month, month_offset, client_count)
select f.organization_id, f.first_month,
  ((extract(year from m.month) - extract(year from f.first_month)) * 12
    + extract(month from m.month) - extract(month from f.first_month))::int,
  count(*)
from public.client_payment_totals f
join public.client_payment_months m on m.organization_id = f.organization_id and m.client_id = f.client_id
  and m.month >= f.first_month and m.month < (f.first_month + interval '13 months')::date
group by 1, 2, 3;

-- Read by members, written only by the triggers.
revoke all on public.client_payment_months, public.client_payment_years, public.client_payment_totals, public.client_cohort_rollups
  from anon, authenticated;
revoke execute on function private.client_cohort_cells(private.client_month_delta[]),
  private.apply_client_payment_rollups(private.client_month_delta[]),
  private.transactions_client_rollups() from public, anon, authenticated;
alter table public.client_payment_months enable row level security;
alter table public.client_payment_years enable row level security;
alter table public.client_payment_totals enable row level security;
alter table public.client_cohort_rollups enable row level security;
grant select on public.client_payment_months, public.client_payment_years, public.client_payment_totals, public.client_cohort_rollups
  to authenticated;
create policy "client_payment_months: members read their organization's client months"
  on public.client_payment_months for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "client_payment_years: members read their organization's client years"
  on public.client_payment_years for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "client_payment_totals: members read their organization's client totals"
  on public.client_payment_totals for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "client_cohort_rollups: members read their organization's cohorts"
  on public.client_cohort_rollups for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
