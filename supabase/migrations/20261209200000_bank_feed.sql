-- Bank Feed Reconciliation (docs/product.md, Bank feed; docs/decisions/049-bank-feed.md): the
-- lines of the bank statements an organization uploads (OFX/QFX), recognised as a payment app's
-- cash-out, a transfer between its own accounts, another deposit or money out, and each app
-- payment linked to the cash-out that carried it to the bank.
--
-- bank_statements        one upload: its file, accounts (last four characters) and period;
-- bank_statement_lines   its lines, unique per organization, account (a hash of the bank and
--                        account ids, never the number) and FITID, so a file read twice adds nothing;
--                        removing a statement removes its lines (the undo of an upload);
-- bank_deposit_payments  which app payment a cash-out carried (one deposit per payment).
--
-- None of these is ever a transaction: a cash-out or an own transfer is never counted as income.
-- Members read them; only the functions below write them (the upgrade checked there).

create table public.bank_statements (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  accounts text not null check (char_length(accounts) between 1 and 200),
  file_name text check (char_length(file_name) <= 255),
  period_start date,
  period_end date,
  line_count integer not null default 0 check (line_count >= 0),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (organization_id, id)
);
create index bank_statements_org_idx on public.bank_statements (organization_id, created_at desc);
create index bank_statements_created_by_idx on public.bank_statements (created_by) where created_by is not null;

create table public.bank_statement_lines (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  statement_id uuid not null,
  account_key text not null check (char_length(account_key) between 1 and 64),
  account_label text not null check (char_length(account_label) between 1 and 20),
  fit_id text not null check (char_length(fit_id) between 1 and 300),
  posted_on date not null,
  amount numeric(12, 2) not null check (amount <> 0 and abs(amount) <= 99999999.99),
  trn_type text not null default '' check (char_length(trn_type) <= 20),
  name text check (char_length(name) <= 255),
  memo text check (char_length(memo) <= 255),
  kind text not null check (kind in ('cashout', 'ownTransfer', 'deposit', 'debit')),
  rail public.payment_method check (rail in ('Venmo', 'CashApp', 'PayPal')),
  -- A cash-out's reconciliation: open until reconciled, then matched, uncovered (no app payment
  -- to carry) or mismatch (app payments, but none adding up to it: expected_amount says theirs).
  status text check (status in ('open', 'matched', 'uncovered', 'mismatch')),
  expected_amount numeric(14, 2),
  check ((kind = 'cashout') = (rail is not null) and (kind = 'cashout') = (status is not null)),
  check (kind <> 'cashout' or amount > 0),
  unique (organization_id, account_key, fit_id),
  unique (organization_id, id),
  foreign key (organization_id, statement_id) references public.bank_statements (organization_id, id) on delete cascade
);
create index bank_statement_lines_statement_idx on public.bank_statement_lines (statement_id);
create index bank_statement_lines_org_day_idx on public.bank_statement_lines (organization_id, posted_on desc, id);

create table public.bank_deposit_payments (
  transaction_id uuid primary key references public.transactions (id) on delete cascade,
  organization_id uuid not null,
  line_id uuid not null,
  foreign key (organization_id, line_id) references public.bank_statement_lines (organization_id, id) on delete cascade
);
create index bank_deposit_payments_line_idx on public.bank_deposit_payments (line_id);
create index bank_deposit_payments_org_idx on public.bank_deposit_payments (organization_id);

alter table public.bank_statements enable row level security;
alter table public.bank_statement_lines enable row level security;
alter table public.bank_deposit_payments enable row level security;
revoke all on public.bank_statements, public.bank_statement_lines, public.bank_deposit_payments from anon, authenticated;
grant select on public.bank_statements, public.bank_statement_lines, public.bank_deposit_payments to authenticated;

create policy "bank_statements: members read their organization's statements"
  on public.bank_statements for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "bank_statement_lines: members read their organization's statement lines"
  on public.bank_statement_lines for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "bank_deposit_payments: members read which deposit carried each payment"
  on public.bank_deposit_payments for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- The upgrade, Bank Feed Reconciliation.
create function private.bank_feed_upgrade() returns uuid
language sql immutable set search_path = ''
as $$ select 'c0000000-0000-4000-8000-000000000003'::uuid $$;
revoke execute on function private.bank_feed_upgrade() from public;

-- Links each cash-out to the app payments it carried, from scratch, for one organization
-- (docs/decisions/049-bank-feed.md). For each cash-out, in the order of its day: the rail's
-- payments not yet carried, of the 45 days up to its day (the latest 300), in the order they
-- arrived; the first run of consecutive ones whose amounts net of fees add up to the deposit
-- exactly (the earliest to end, then the shortest) is what it carried. None: 'uncovered' when
-- the rail had no such payment, else 'mismatch' with what the payments since the rail's previous
-- cash-out add up to.
create function private.reconcile_bank_feed(p_org uuid) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  l record;
  ids uuid[];
  nets numeric[];
  days date[];
  runs numeric[];
  n int;
  hit_from bigint;
  hit_to bigint;
  prev date;
  since numeric;
begin
  -- One reconciliation of an organization at a time (an upload, a removal, an import, a click).
  perform 1 from public.bank_statements s where s.organization_id = p_org order by s.id for update;
  delete from public.bank_deposit_payments d where d.organization_id = p_org;
  update public.bank_statement_lines b set status = 'open', expected_amount = null
  where b.organization_id = p_org and b.kind = 'cashout' and (b.status <> 'open' or b.expected_amount is not null);
  -- The latest 500 cash-outs (a year and more of them for a business; a hostile file of 20,000
  -- cash-out lines costs no more), oldest first; older ones stay 'open'.
  for l in
    select x.id, x.rail, x.posted_on, x.amount from (
      select b.id, b.rail, b.posted_on, b.amount from public.bank_statement_lines b
      where b.organization_id = p_org and b.kind = 'cashout'
      order by b.posted_on desc, b.amount desc, b.id desc
      limit 500
    ) x
    order by x.posted_on, x.amount, x.id
  loop
    -- The candidates in the order they arrived, with the running sum of their net amounts.
    with c as (
      select t.id, t.date_received, t.created_at, t.amount - coalesce(t.fee, 0) as net
      from public.transactions t
      where t.organization_id = p_org and t.payment_method = l.rail
        and t.date_received <= l.posted_on and t.date_received > l.posted_on - 45
        and not exists (select 1 from public.bank_deposit_payments d where d.transaction_id = t.id)
      order by t.date_received desc, t.created_at desc, t.id desc
      limit 300
    ), r as (
      select c.id, c.date_received, c.net,
        row_number() over w as k, sum(c.net) over w as run
      from c window w as (order by c.date_received, c.created_at, c.id rows unbounded preceding)
    )
    select coalesce(array_agg(r.id order by r.k), '{}'), coalesce(array_agg(r.net order by r.k), '{}'),
      coalesce(array_agg(r.date_received order by r.k), '{}'), coalesce(array_agg(r.run order by r.k), '{}')
    into ids, nets, days, runs
    from r;
    n := cardinality(ids);
    if n = 0 then
      update public.bank_statement_lines set status = 'uncovered', expected_amount = 0 where id = l.id;
      continue;
    end if;
    -- Payments i+1..k add up to the deposit when run[k] - run[i] = amount (run[0] = 0): one
    -- equality join (hashed, linear), the earliest k, then the latest i.
    hit_from := null;
    hit_to := null;
    select a.k, max(b.k) into hit_to, hit_from
    from unnest(runs) with ordinality a(run, k)
    join (select 0::numeric as run, 0::bigint as k union all select x.run, x.k from unnest(runs) with ordinality x(run, k)) b
      on b.run = a.run - l.amount and b.k < a.k
    group by a.k
    order by a.k
    limit 1;
    if hit_to is not null then
      insert into public.bank_deposit_payments (transaction_id, organization_id, line_id)
      select ids[i], p_org, l.id from generate_series(hit_from + 1, hit_to) i;
      update public.bank_statement_lines set status = 'matched', expected_amount = l.amount where id = l.id;
    else
      select max(b.posted_on) into prev from public.bank_statement_lines b
      where b.organization_id = p_org and b.kind = 'cashout' and b.rail = l.rail and b.posted_on < l.posted_on;
      select coalesce(sum(x.net), 0) into since
      from unnest(nets, days) x(net, day) where prev is null or x.day > prev;
      update public.bank_statement_lines set status = 'mismatch', expected_amount = since where id = l.id;
    end if;
  end loop;
end
$$;
revoke execute on function private.reconcile_bank_feed(uuid) from public;

-- What does not reconcile, for the screen and the mail (docs/decisions/049-bank-feed.md):
-- 'uncovered' and 'mismatch' cash-outs, and 'notDeposited': a payment of a rail the statements
-- show cash-outs of, dated within their periods, that no deposit carried 10 days (PENDING_DAYS,
-- app/lib/bank-feed.ts) before the end of the latest one.
create function private.bank_feed_discrepancies(p_org uuid)
returns table (kind text, ref_id uuid, rail public.payment_method, day date, amount numeric, expected numeric, label text)
language sql stable security definer set search_path = ''
as $$
  with span as (
    select least((select min(s.period_start) from public.bank_statements s where s.organization_id = p_org),
        (select min(b.posted_on) from public.bank_statement_lines b where b.organization_id = p_org)) as first_day,
      greatest((select max(s.period_end) from public.bank_statements s where s.organization_id = p_org),
        (select max(b.posted_on) from public.bank_statement_lines b where b.organization_id = p_org)) as last_day
  ), rails as (
    select distinct b.rail from public.bank_statement_lines b where b.organization_id = p_org and b.kind = 'cashout'
  )
  select b.status, b.id, b.rail, b.posted_on, b.amount, b.expected_amount, coalesce(b.name, b.memo, '')
  from public.bank_statement_lines b
  where b.organization_id = p_org and b.kind = 'cashout' and b.status in ('uncovered', 'mismatch')
  union all
  select 'notDeposited', t.id, t.payment_method, t.date_received, t.amount, t.amount - coalesce(t.fee, 0),
    coalesce(c.name, t.raw_payer, '')
  from public.transactions t
  cross join span
  left join public.clients c on c.organization_id = t.organization_id and c.id = t.client_id
  where t.organization_id = p_org
    and t.payment_method in (select r.rail from rails r)
    and t.date_received >= span.first_day and t.date_received <= span.last_day - 10
    and not exists (select 1 from public.bank_deposit_payments d where d.transaction_id = t.id)
  order by 4, 2
$$;
revoke execute on function private.bank_feed_discrepancies(uuid) from public;

-- Records one uploaded statement's lines (the server parsed and recognised them) and
-- reconciles. Lines already recorded (same account and FITID) are duplicates and skipped; a file
-- that adds nothing records no statement. Errors: not_member, upgrade_inactive, too_many_lines.
create function public.record_bank_statement(
  p_org uuid, p_file_name text, p_start date, p_end date, p_lines jsonb
) returns jsonb
language plpgsql security definer set search_path = ''
as $$
declare
  sid uuid;
  total int;
  added int;
begin
  perform private.require_member(p_org);
  if not private.owns_upgrade(p_org, private.bank_feed_upgrade()) then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  total := coalesce(jsonb_array_length(p_lines), 0);
  if total > 20000 then
    raise exception 'too_many_lines' using errcode = 'P0001';
  end if;
  insert into public.bank_statements (organization_id, accounts, file_name, period_start, period_end)
  select p_org, coalesce(left(string_agg(distinct x.label, ', '), 200), '—'), left(p_file_name, 255), p_start, p_end
  from jsonb_to_recordset(p_lines) as x(label text)
  returning id into sid;
  with ins as (
    insert into public.bank_statement_lines (organization_id, statement_id, account_key, account_label, fit_id, posted_on,
      amount, trn_type, name, memo, kind, rail, status)
    select p_org, sid, x."accountKey", x."accountLabel", x."fitId", x."postedOn", x.amount, coalesce(x."trnType", ''),
      x.name, x.memo, x.kind, x.rail::public.payment_method, case when x.kind = 'cashout' then 'open' end
    from jsonb_to_recordset(p_lines) as x("accountKey" text, "accountLabel" text, "fitId" text, "postedOn" date,
      amount numeric, "trnType" text, name text, memo text, kind text, rail text)
    on conflict (organization_id, account_key, fit_id) do nothing
    returning 1
  )
  select count(*) into added from ins;
  if added = 0 then
    delete from public.bank_statements where id = sid;
    sid := null;
  else
    update public.bank_statements set line_count = added where id = sid;
    perform private.reconcile_bank_feed(p_org);
  end if;
  return jsonb_build_object('statementId', sid, 'added', added, 'duplicates', total - added);
end
$$;
revoke execute on function public.record_bank_statement(uuid, text, date, date, jsonb) from public, anon;
grant execute on function public.record_bank_statement(uuid, text, date, date, jsonb) to authenticated;

-- Removes an uploaded statement and its lines (the undo of an upload), then reconciles what is
-- left. Errors: statement_not_found (also another organization's), upgrade_inactive.
create function public.remove_bank_statement(p_statement uuid) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  org uuid;
begin
  select s.organization_id into org from public.bank_statements s
  where s.id = p_statement and s.organization_id in (select public.my_organization_ids());
  if org is null then
    raise exception 'statement_not_found' using errcode = 'P0001';
  end if;
  if not private.owns_upgrade(org, private.bank_feed_upgrade()) then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  delete from public.bank_statements where id = p_statement;
  perform private.reconcile_bank_feed(org);
end
$$;
revoke execute on function public.remove_bank_statement(uuid) from public, anon;
grant execute on function public.remove_bank_statement(uuid) to authenticated;

-- Reconciles again (after payments were imported or edited). Errors: not_member, upgrade_inactive.
create function public.reconcile_bank_feed(p_org uuid) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_member(p_org);
  if not private.owns_upgrade(p_org, private.bank_feed_upgrade()) then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  perform private.reconcile_bank_feed(p_org);
end
$$;
revoke execute on function public.reconcile_bank_feed(uuid) from public, anon;
grant execute on function public.reconcile_bank_feed(uuid) to authenticated;

-- The discrepancies, for a member. Errors: not_member.
create function public.bank_feed_discrepancies(p_org uuid)
returns table (kind text, ref_id uuid, rail public.payment_method, day date, amount numeric, expected numeric, label text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_member(p_org);
  return query select * from private.bank_feed_discrepancies(p_org);
end
$$;
revoke execute on function public.bank_feed_discrepancies(uuid) from public, anon;
grant execute on function public.bank_feed_discrepancies(uuid) to authenticated;
