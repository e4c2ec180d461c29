-- Rules (docs/product.md, Rules; docs/decisions/047-rules.md), the Workflow Automation module
-- (b0000000-0000-4000-8000-000000000010): when a payment arrives (typed, CSV import, email sync:
-- every insert into transactions) and a rule's conditions hold (payer, amount range, method, memo
-- contains, source), the rule sets its category or client, adds a tag, holds it for review, or
-- asks that a member be told. Rules run in their order, in SQL, from a statement-level trigger
-- named to fire after the matching engine's (decision 040), inside the transaction that brought
-- the payment in; each run is a row of rule_runs (the history). An organization without an
-- enabled rule (or without the module) costs one `exists` per statement.
--
-- Limits without Automation Unlimited (c0000000-0000-4000-8000-000000000015): 10 rules, 500 runs
-- per calendar month (UTC; the payments past the limit are left as they came), a history of 90
-- days (a year with the upgrade). Codes: module_inactive, rule_limit, no_condition, no_action,
-- recipient_not_member, bad_amount_range.

-- What rules change on a payment: tags, and a hold a member clears in the transactions screen.
alter table public.transactions
  add column tags text[] not null default '{}' check (cardinality(tags) <= 20),
  add column held_for_review boolean not null default false;
grant update (held_for_review) on public.transactions to authenticated;

create function private.rule_limits(p_organization_id uuid, out unlimited boolean, out max_rules integer,
  out max_runs_per_month integer, out history_days integer)
language sql stable security definer set search_path = ''
as $$
  select u, case when u then null else 10 end, case when u then null else 500 end, case when u then 365 else 90 end
  from (select private.owns_upgrade(p_organization_id, 'c0000000-0000-4000-8000-000000000015') as u) x
$$;

create table public.rules (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  position integer not null default 0 check (position >= 0),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  enabled boolean not null default true,
  -- Conditions (null: any). The payer is compared by payer_key (case and accent blind) with the
  -- payment's payer name as received, or its client's name when it has none (typed payments).
  payer text check (char_length(btrim(payer)) between 1 and 200),
  amount_min numeric(12, 2) check (amount_min >= 0),
  amount_max numeric(12, 2) check (amount_max >= 0),
  payment_method public.payment_method,
  memo_contains text check (char_length(btrim(memo_contains)) between 1 and 200),
  source text check (source in ('typed', 'csv', 'email')),
  -- Actions.
  set_category public.transaction_category,
  set_client_id uuid,
  add_tag text check (add_tag ~ '^[^,\s][^,]{0,38}[^,\s]$|^[^,\s]$'),
  notify_user_id uuid references auth.users (id) on delete set null,
  hold_for_review boolean not null default false,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, id),
  foreign key (organization_id, set_client_id) references public.clients (organization_id, id) on delete set null (set_client_id),
  check (amount_min is null or amount_max is null or amount_min <= amount_max)
);
create index rules_org_position_idx on public.rules (organization_id, position, created_at, id);
create index rules_client_idx on public.rules (set_client_id) where set_client_id is not null;
create index rules_notify_idx on public.rules (notify_user_id) where notify_user_id is not null;
create index rules_created_by_idx on public.rules (created_by);

alter table public.rules enable row level security;
revoke all on public.rules from anon, authenticated;
grant select, delete on public.rules to authenticated;
grant insert (organization_id, position, name, enabled, payer, amount_min, amount_max, payment_method, memo_contains, source,
  set_category, set_client_id, add_tag, notify_user_id, hold_for_review) on public.rules to authenticated;
grant update (position, name, enabled, payer, amount_min, amount_max, payment_method, memo_contains, source,
  set_category, set_client_id, add_tag, notify_user_id, hold_for_review) on public.rules to authenticated;

create policy "rules: members read their organization's rules"
  on public.rules for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "rules: owners and administrators add rules"
  on public.rules for insert to authenticated
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "rules: owners and administrators change rules"
  on public.rules for update to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')))
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "rules: owners and administrators delete rules"
  on public.rules for delete to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));

-- Written by members: only with the module, within the plan's number of rules, with a condition
-- and an action, telling only a member of the organization. A new rule goes last.
create function private.rules_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  lim record;
begin
  if not exists (select 1 from public.organization_modules m
      where m.organization_id = new.organization_id and m.module_id = 'b0000000-0000-4000-8000-000000000010') then
    raise exception 'module_inactive' using errcode = 'P0001';
  end if;
  if new.amount_min is not null and new.amount_max is not null and new.amount_min > new.amount_max then
    raise exception 'bad_amount_range' using errcode = 'P0001';
  end if;
  if new.payer is null and new.amount_min is null and new.amount_max is null and new.payment_method is null
      and new.memo_contains is null and new.source is null then
    raise exception 'no_condition' using errcode = 'P0001';
  end if;
  -- A client or member deleted later leaves the rule with fewer actions (the foreign keys); only a write is refused.
  if new.set_category is null and new.set_client_id is null and new.add_tag is null and new.notify_user_id is null
      and not new.hold_for_review then
    raise exception 'no_action' using errcode = 'P0001';
  end if;
  if new.notify_user_id is not null and (tg_op = 'INSERT' or new.notify_user_id is distinct from old.notify_user_id)
      and not exists (select 1 from public.organization_members m
        where m.organization_id = new.organization_id and m.user_id = new.notify_user_id) then
    raise exception 'recipient_not_member' using errcode = 'P0001';
  end if;
  if tg_op = 'INSERT' then
    -- Serializes the organization's rule inserts, so two at once cannot both pass the limit.
    perform 1 from public.organizations o where o.id = new.organization_id for update;
    lim := private.rule_limits(new.organization_id);
    if lim.max_rules is not null and (select count(*) from public.rules r where r.organization_id = new.organization_id) >= lim.max_rules then
      raise exception 'rule_limit' using errcode = 'P0001';
    end if;
    new.position := coalesce((select max(r.position) + 1 from public.rules r where r.organization_id = new.organization_id), 0);
  end if;
  new.payer := nullif(btrim(new.payer), '');
  new.memo_contains := nullif(btrim(new.memo_contains), '');
  new.updated_at := now();
  return new;
end
$$;
create trigger rules_before_write before insert or update on public.rules
  for each row execute function private.rules_before_write();

-- The history: one row per rule and payment it acted on (what it did, as it did it). Members read
-- it; only the trigger writes it. A rule deleted or a payment deleted leaves its rows, unlinked.
create table public.rule_runs (
  id bigint generated always as identity primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  rule_id uuid,
  rule_name text not null,
  transaction_id uuid references public.transactions (id) on delete set null,
  ran_at timestamptz not null default now(),
  -- {"category": ..., "client_id": ..., "tag": ..., "hold": true, "notify": true}: what was done.
  actions jsonb not null default '{}' check (jsonb_typeof(actions) = 'object'),
  notify_user_id uuid references auth.users (id) on delete set null,
  -- Stamped when the member's mail is claimed (app/.server/rules/notices.ts), once.
  notified_at timestamptz,
  foreign key (organization_id, rule_id) references public.rules (organization_id, id) on delete set null (rule_id)
);
create index rule_runs_org_ran_idx on public.rule_runs (organization_id, ran_at desc, id desc);
create index rule_runs_rule_idx on public.rule_runs (rule_id) where rule_id is not null;
create index rule_runs_transaction_idx on public.rule_runs (transaction_id) where transaction_id is not null;
create index rule_runs_notice_idx on public.rule_runs (id) where notify_user_id is not null and notified_at is null;
create index rule_runs_notify_user_idx on public.rule_runs (notify_user_id) where notify_user_id is not null;

alter table public.rule_runs enable row level security;
revoke all on public.rule_runs from anon, authenticated;
revoke all on sequence public.rule_runs_id_seq from anon, authenticated;
grant select on public.rule_runs to authenticated;
create policy "rule_runs: members read their organization's rule history"
  on public.rule_runs for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- Whether a payment meets a rule's conditions (shared by the trigger and the preview).
create function private.rule_conditions_hold(
  p_payer text, p_amount_min numeric, p_amount_max numeric, p_method public.payment_method, p_memo text, p_source text,
  t public.transactions
) returns boolean
language sql stable set search_path = ''
as $$
  select (p_amount_min is null or t.amount >= p_amount_min)
    and (p_amount_max is null or t.amount <= p_amount_max)
    and (p_method is null or t.payment_method = p_method)
    and (p_memo is null or strpos(lower(coalesce(t.description, '')), lower(p_memo)) > 0)
    and (p_source is null or case p_source
      when 'typed' then t.import_source is null
      when 'email' then t.import_source = 'email'
      else t.import_source is not null and t.import_source <> 'email' end)
    and (p_payer is null or public.payer_key(coalesce(t.raw_payer,
      (select c.name from public.clients c where c.id = t.client_id), '')) = public.payer_key(p_payer))
$$;

-- "Would match N": how many of the organization's payments received so far meet these
-- conditions. Refusal: not_member (another organization's payments are not counted).
create function public.count_rule_matches(
  p_organization_id uuid, p_payer text, p_amount_min numeric, p_amount_max numeric, p_method public.payment_method,
  p_memo text, p_source text
) returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_member(p_organization_id);
  return (select count(*)::integer from public.transactions t
    where t.organization_id = p_organization_id and t.amount > 0
      and private.rule_conditions_hold(nullif(btrim(p_payer), ''), p_amount_min, p_amount_max, p_method,
        nullif(btrim(p_memo), ''), p_source, t));
end
$$;

-- The trigger: per organization of the statement's rows, one exists; with rules, each enabled rule
-- in order acts on the new payments that meet its conditions (as earlier rules left them), within
-- the month's runs left. A rule sets the client only of a payment without one (the engine's match
-- and the importer's payer matching come first); a later rule's category wins.
create function private.transactions_apply_rules() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  org uuid;
  ids uuid[];
  r public.rules;
  lim record;
  budget integer;
  done integer;
begin
  for org in select distinct n.organization_id from new_rows n loop
    continue when not exists (select 1 from public.rules x
      join public.organization_modules m on m.organization_id = x.organization_id and m.module_id = 'b0000000-0000-4000-8000-000000000010'
      where x.organization_id = org and x.enabled);
    select array_agg(n.id) into ids from new_rows n where n.organization_id = org and n.amount > 0;
    continue when ids is null;
    lim := private.rule_limits(org);
    budget := case when lim.max_runs_per_month is null then null
      else greatest(0, lim.max_runs_per_month - (select count(*) from public.rule_runs rr
        where rr.organization_id = org and rr.ran_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'))::integer end;
    for r in select * from public.rules x where x.organization_id = org and x.enabled order by x.position, x.created_at, x.id loop
      exit when budget is not null and budget <= 0;
      with hit as (
        select t.id, t.client_id as old_client from public.transactions t
        where t.id = any (ids)
          and private.rule_conditions_hold(r.payer, r.amount_min, r.amount_max, r.payment_method, r.memo_contains, r.source, t)
        order by t.date_received, t.created_at, t.id
        limit budget
      ), changed as (
        update public.transactions t set
          category = coalesce(r.set_category, t.category),
          client_id = coalesce(t.client_id, r.set_client_id),
          tags = case when r.add_tag is null or r.add_tag = any (t.tags) or cardinality(t.tags) >= 20 then t.tags else t.tags || r.add_tag end,
          held_for_review = t.held_for_review or r.hold_for_review
        from hit where t.id = hit.id
        returning t.id, hit.old_client
      )
      insert into public.rule_runs (organization_id, rule_id, rule_name, transaction_id, actions, notify_user_id)
      select org, r.id, r.name, c.id, jsonb_strip_nulls(jsonb_build_object(
          'category', r.set_category,
          'client_id', case when c.old_client is null then r.set_client_id end,
          'tag', r.add_tag,
          'hold', case when r.hold_for_review then true end,
          'notify', case when r.notify_user_id is not null then true end)),
        r.notify_user_id
      from changed c;
      get diagnostics done = row_count;
      budget := budget - done;
    end loop;
  end loop;
  return null;
end
$$;

-- Statement triggers of one event fire in name order: "transactions_sort…" comes after
-- transactions_rollup_insert, transactions_rollups_clients_insert and transactions_settle_inserted
-- (the engine), so a payment the engine matched already has its client.
create trigger transactions_sort_by_rules after insert on public.transactions
  referencing new table as new_rows for each statement execute function private.transactions_apply_rules();

revoke execute on function private.rule_limits(uuid), private.rules_before_write(),
  private.transactions_apply_rules()
from public, anon, authenticated;
revoke execute on function private.rule_conditions_hold(text, numeric, numeric, public.payment_method, text, text, public.transactions)
from public, anon, authenticated;
revoke execute on function public.count_rule_matches(uuid, text, numeric, numeric, public.payment_method, text, text)
from public, anon, authenticated;
grant execute on function public.count_rule_matches(uuid, text, numeric, numeric, public.payment_method, text, text)
to authenticated;
