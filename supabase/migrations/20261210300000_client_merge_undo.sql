-- Merging duplicate clients keeps everything, and is undoable for 30 days (docs/product.md,
-- Clients › Duplicates and merges; docs/decisions/054-client-merge-undo.md).
--
-- 1. public.client_merges: one row per merge: the merged client's row as it was, the ids of every
--    row that moved to the kept client (per table), the rows the merge had to drop (a payer name or
--    a pipeline card the kept client already had), the kept client's fields before and after, who
--    and when, and when it was undone. Members read their organization's; only the functions write.
-- 2. public.client_duplicate_dismissals: pairs of clients a member said are not duplicates.
-- 3. private.client_merge_moving: the (from, to) pair a merge or an undo is moving, inserted and
--    deleted inside that function's transaction (so no other transaction ever sees a row). The
--    triggers that refuse a change of client (a sent invoice, a schedule or a rule without its
--    upgrade) let exactly that move through.
-- 4. merge_clients (same signature and codes as 20261205010000_appointment_page.sql): moves
--    payments, appointments, expectations, invoices, recurring invoices, rules' "set client",
--    notes, pipeline cards, payer names and staged import rows; unions the tags; fills the kept
--    client's empty fields; records the merge; deletes the merged client.
-- 5. undo_client_merge(merge): with CRM Enterprise, within 30 days, once.
-- 6. dismiss_client_duplicates(a, b), with CRM Enterprise.

-- 1 -------------------------------------------------------------------------------------------

create table public.client_merges (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- No foreign key: a merge outlives a later merge of its kept client (undone in reverse order);
  -- an undo needs the kept client to exist (kept_client_gone).
  kept_client_id uuid not null,
  merged_client_id uuid not null,
  merged_client jsonb not null check (jsonb_typeof(merged_client) = 'object'),
  moved jsonb not null default '{}' check (jsonb_typeof(moved) = 'object'),
  dropped jsonb not null default '{}' check (jsonb_typeof(dropped) = 'object'),
  kept_before jsonb not null check (jsonb_typeof(kept_before) = 'object'),
  kept_after jsonb not null check (jsonb_typeof(kept_after) = 'object'),
  merged_by uuid references auth.users (id) on delete set null,
  merged_at timestamptz not null default now(),
  undone_at timestamptz,
  undone_by uuid references auth.users (id) on delete set null,
  check (kept_client_id <> merged_client_id),
  check (undone_at is null or undone_at >= merged_at)
);
create index client_merges_org_idx on public.client_merges (organization_id, merged_at desc);
create index client_merges_merged_at_idx on public.client_merges (merged_at);
create index client_merges_merged_by_idx on public.client_merges (merged_by) where merged_by is not null;
create index client_merges_undone_by_idx on public.client_merges (undone_by) where undone_by is not null;

alter table public.client_merges enable row level security;
revoke all on public.client_merges from public, anon, authenticated;
grant select on public.client_merges to authenticated;
create policy "client_merges: members read their organization's merges"
  on public.client_merges for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- 2 -------------------------------------------------------------------------------------------

create table public.client_duplicate_dismissals (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  client_a uuid not null,
  client_b uuid not null,
  dismissed_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (organization_id, client_a, client_b),
  check (client_a < client_b),
  foreign key (organization_id, client_a) references public.clients (organization_id, id) on delete cascade,
  foreign key (organization_id, client_b) references public.clients (organization_id, id) on delete cascade
);
create index client_duplicate_dismissals_b_idx on public.client_duplicate_dismissals (organization_id, client_b);
create index client_duplicate_dismissals_by_idx on public.client_duplicate_dismissals (dismissed_by) where dismissed_by is not null;

alter table public.client_duplicate_dismissals enable row level security;
revoke all on public.client_duplicate_dismissals from public, anon, authenticated;
grant select on public.client_duplicate_dismissals to authenticated;
create policy "client_duplicate_dismissals: members read their organization's"
  on public.client_duplicate_dismissals for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- 3 -------------------------------------------------------------------------------------------

create table private.client_merge_moving (
  from_client uuid not null,
  to_client uuid not null
);
revoke all on private.client_merge_moving from public, anon, authenticated;

-- Whether the running merge or undo is moving rows from p_from to p_to (only its own transaction sees the row).
create function private.merge_moving(p_from uuid, p_to uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select p_from is not null and p_to is not null
    and exists (select 1 from private.client_merge_moving m where m.from_client = p_from and m.to_client = p_to)
$$;

-- The ids a merge recorded under p_key.
create function private.merge_ids(p_moved jsonb, p_key text) returns uuid[]
language sql immutable set search_path = ''
as $$
  select coalesce(array(select x::uuid from jsonb_array_elements_text(coalesce(p_moved -> p_key, '[]'::jsonb)) as x), '{}')
$$;

-- As in 20261206010000_invoices.sql (and later), except that a merge may move a sent invoice to the kept client.
create or replace function private.invoices_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and old.status <> 'draft' and (
    new.number is distinct from old.number or new.language is distinct from old.language
    or new.issue_date is distinct from old.issue_date or new.due_date is distinct from old.due_date
    or new.notes is distinct from old.notes or new.tax_rate is distinct from old.tax_rate
    or new.discount is distinct from old.discount or new.subtotal is distinct from old.subtotal
    or new.bill_to_name is distinct from old.bill_to_name or new.bill_to_email is distinct from old.bill_to_email
    or (new.client_id is distinct from old.client_id and new.client_id is not null
      and not private.merge_moving(old.client_id, new.client_id))
    or (old.status = 'void' and new.status <> 'void')) then
    raise exception 'invoice_not_draft' using errcode = 'P0001';
  end if;
  new.total := round((new.subtotal - new.discount) * (1 + new.tax_rate / 100), 2);
  return new;
end
$$;

-- As in 20261207200000_recurring_invoices.sql, except that a merge's move of the client alone
-- changes nothing else (no upgrade check, the next date kept).
create or replace function private.recurring_invoices_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.client_id is distinct from old.client_id
      and private.merge_moving(old.client_id, new.client_id)
      and (to_jsonb(new) - 'client_id' - 'updated_at') = (to_jsonb(old) - 'client_id' - 'updated_at') then
    return new;
  end if;
  if tg_op = 'UPDATE' and new.client_id is null and old.client_id is not null and new.active then
    new.active := false;
    new.paused_reason := 'client_removed';
  end if;
  if tg_op = 'UPDATE' and (new.client_id, new.language, new.notes, new.tax_rate, new.discount, new.days_until_due, new.cadence,
      new.anchor_date, new.end_date, new.max_count, new.active)
    is not distinct from (old.client_id, old.language, old.notes, old.tax_rate, old.discount, old.days_until_due, old.cadence,
      old.anchor_date, old.end_date, old.max_count, old.active) then
    return new;
  end if;
  if not new.active then
    new.next_run := null;
    return new;
  end if;
  if not private.owns_upgrade(new.organization_id, 'c0000000-0000-4000-8000-000000000013') then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  if new.client_id is null then
    raise exception 'invoice_without_client' using errcode = 'P0001';
  end if;
  if tg_op = 'INSERT' then
    new.made_count := 0;
    new.last_period := null;
  end if;
  new.paused_reason := null;
  new.next_run := private.recurring_next(new,
    greatest(private.organization_today(new.organization_id) - 1, coalesce(new.last_period, '-infinity'::date)));
  return new;
end
$$;

-- As in 20261209000000_rules.sql, except that a merge's move of a rule's "set client" alone is
-- not a write of the rule (it passes without the module, keeps the rule's updated_at).
create or replace function private.rules_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  lim record;
begin
  if tg_op = 'UPDATE' and new.set_client_id is distinct from old.set_client_id
      and private.merge_moving(old.set_client_id, new.set_client_id)
      and (to_jsonb(new) - 'set_client_id') = (to_jsonb(old) - 'set_client_id') then
    return new;
  end if;
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

-- 4 -------------------------------------------------------------------------------------------

-- Merges p_merge into p_keep, two clients of one organization, for a member of it (any plan):
-- everything that named the merged client names the kept one: payments (which the engine may then
-- match to the kept client's open expectations), appointments (their expectations follow),
-- expectations of their own, invoices (sent ones too: the bill-to they were sent with stays),
-- recurring invoices, rules that set it, notes, pipeline cards (where the kept client has a card
-- in the same pipeline, the kept client's stays and the merged one's is dropped), payer names
-- (one the kept client already has is dropped), rows of imports not committed yet. The kept
-- client's empty name, e-mail, phone and company take the merged one's, a pending kept client
-- becomes active if the merged one was, and the tags are the union (the kept client's first, at
-- most 20). The merge is recorded in client_merges (undo_client_merge), then the merged client
-- is deleted. Refusals: not_found (either is missing, or they are of different organizations),
-- not_member, same_client. Returns the kept client's id.
create or replace function public.merge_clients(p_keep uuid, p_merge uuid) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  org uuid;
  keep public.clients;
  gone public.clients;
  after public.clients;
  moved jsonb := '{}';
  dropped jsonb := '{}';
  ids uuid[];
  tx_ids uuid[];
  matches_before uuid[];
  staged jsonb;
begin
  select c.organization_id into org from public.clients c
  where c.id = p_keep and c.organization_id = (select m.organization_id from public.clients m where m.id = p_merge);
  if org is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(org);
  if p_keep = p_merge then
    raise exception 'same_client' using errcode = 'P0001';
  end if;
  -- Both rows, in id order: two merges of the same pair, either way round, queue instead of
  -- deadlocking. The lock also holds off any new row naming either client until the end.
  perform 1 from public.clients c where c.id in (p_keep, p_merge) order by c.id for update;
  select * into keep from public.clients where id = p_keep;
  select * into gone from public.clients where id = p_merge;
  if keep.id is null or gone.id is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  insert into private.client_merge_moving (from_client, to_client) values (gone.id, keep.id);

  -- Appointments first: their expectations follow (private.booking_appointments_after_update).
  with m as (update public.booking_appointments set client_id = keep.id where organization_id = org and client_id = gone.id returning id)
  select coalesce(array_agg(id), '{}') into ids from m;
  moved := moved || jsonb_build_object('booking_appointments', to_jsonb(ids));
  with m as (update public.payment_expectations set client_id = keep.id where organization_id = org and client_id = gone.id returning id)
  select coalesce(array_agg(id), '{}') into ids from m;
  moved := moved || jsonb_build_object('payment_expectations', to_jsonb(ids));

  -- Payments; the matches the engine makes on the move are recorded, for an undo to take back.
  tx_ids := coalesce(array(select t.id from public.transactions t where t.organization_id = org and t.client_id = gone.id), '{}');
  matches_before := coalesce(array(select m.id from public.payment_matches m where m.transaction_id = any (tx_ids)), '{}');
  update public.transactions set client_id = keep.id where id = any (tx_ids);
  moved := moved || jsonb_build_object('transactions', to_jsonb(tx_ids),
    'payment_matches', to_jsonb(coalesce(array(select m.id from public.payment_matches m
      where m.transaction_id = any (tx_ids) and not m.id = any (matches_before)), '{}')));

  with m as (update public.invoices set client_id = keep.id where organization_id = org and client_id = gone.id returning id)
  select coalesce(array_agg(id), '{}') into ids from m;
  moved := moved || jsonb_build_object('invoices', to_jsonb(ids));
  with m as (update public.recurring_invoices set client_id = keep.id where organization_id = org and client_id = gone.id returning id)
  select coalesce(array_agg(id), '{}') into ids from m;
  moved := moved || jsonb_build_object('recurring_invoices', to_jsonb(ids));
  with m as (update public.rules set set_client_id = keep.id where organization_id = org and set_client_id = gone.id returning id)
  select coalesce(array_agg(id), '{}') into ids from m;
  moved := moved || jsonb_build_object('rules', to_jsonb(ids));
  with m as (update public.client_notes set client_id = keep.id where organization_id = org and client_id = gone.id returning id)
  select coalesce(array_agg(id), '{}') into ids from m;
  moved := moved || jsonb_build_object('client_notes', to_jsonb(ids));

  -- Pipeline cards: one per pipeline and client; where both have one, the kept client's stays.
  dropped := dropped || jsonb_build_object('crm_cards', coalesce((select jsonb_agg(to_jsonb(c) order by c.id) from public.crm_cards c
    where c.organization_id = org and c.client_id = gone.id
      and exists (select 1 from public.crm_cards k where k.pipeline_id = c.pipeline_id and k.client_id = keep.id)), '[]'::jsonb));
  delete from public.crm_cards c where c.organization_id = org and c.client_id = gone.id
    and exists (select 1 from public.crm_cards k where k.pipeline_id = c.pipeline_id and k.client_id = keep.id);
  with m as (update public.crm_cards set client_id = keep.id where organization_id = org and client_id = gone.id returning id)
  select coalesce(array_agg(id), '{}') into ids from m;
  moved := moved || jsonb_build_object('crm_cards', to_jsonb(ids));

  -- A payer name is unique per client: one the kept client has already is dropped.
  dropped := dropped || jsonb_build_object('payer_aliases', coalesce((select jsonb_agg(to_jsonb(a) order by a.id) from public.payer_aliases a
    where a.organization_id = org and a.client_id = gone.id
      and exists (select 1 from public.payer_aliases k where k.organization_id = org and k.client_id = keep.id and k.alias_key = a.alias_key)), '[]'::jsonb));
  delete from public.payer_aliases a where a.organization_id = org and a.client_id = gone.id
    and exists (select 1 from public.payer_aliases k where k.organization_id = org and k.client_id = keep.id and k.alias_key = a.alias_key);
  with m as (update public.payer_aliases set client_id = keep.id where organization_id = org and client_id = gone.id returning id)
  select coalesce(array_agg(id), '{}') into ids from m;
  moved := moved || jsonb_build_object('payer_aliases', to_jsonb(ids));

  with m as (update private.import_staged_rows r set client_id = keep.id
    where r.client_id = gone.id and r.batch_id in (select b.id from public.import_batches b where b.organization_id = org)
    returning r.batch_id, r.ord)
  select coalesce(jsonb_agg(jsonb_build_object('batch_id', m.batch_id, 'ord', m.ord)), '[]'::jsonb) into staged from m;
  moved := moved || jsonb_build_object('import_staged_rows', staged);

  update public.clients c set
    name = case when btrim(c.name) = '' then gone.name else c.name end,
    email = coalesce(c.email, gone.email),
    phone = coalesce(nullif(btrim(c.phone), ''), gone.phone),
    company = coalesce(nullif(btrim(c.company), ''), gone.company),
    status = case when c.status = 'pending' and gone.status = 'active' then 'active'::public.client_status else c.status end,
    tags = (c.tags || coalesce(array(select t from unnest(gone.tags) with ordinality as g (t, n)
      where not t = any (c.tags) order by g.n), '{}'))[1:20]
  where c.id = keep.id
  returning * into after;

  insert into public.client_merges (organization_id, kept_client_id, merged_client_id, merged_client, moved, dropped,
    kept_before, kept_after, merged_by)
  values (org, keep.id, gone.id, to_jsonb(gone) - 'name_key' - 'company_key', moved, dropped,
    jsonb_build_object('name', keep.name, 'email', keep.email, 'phone', keep.phone, 'company', keep.company,
      'status', keep.status, 'tags', to_jsonb(keep.tags)),
    jsonb_build_object('name', after.name, 'email', after.email, 'phone', after.phone, 'company', after.company,
      'status', after.status, 'tags', to_jsonb(after.tags)),
    (select auth.uid()));

  delete from public.clients where id = gone.id;
  delete from private.client_merge_moving where from_client = gone.id and to_client = keep.id;
  return keep.id;
end
$$;

-- 5 -------------------------------------------------------------------------------------------

/**
 * Undoes a merge of the caller's organizations, with CRM Enterprise, within 30 days, once: the
 * merged client comes back with its own id and its row as it was; every row the merge moved that
 * is still on the kept client goes back to it (rows moved elsewhere since, or deleted, stay as
 * they are); the matches the merge made are taken back; the payer names and pipeline cards it
 * dropped come back (a card in its stage, or the first stage if that stage is gone; none if the
 * pipeline is gone); each of the kept client's fields the merge filled is restored if unchanged
 * since. Returns the merged client's id. Codes: not_found, not_member, upgrade_inactive,
 * already_undone, undo_expired, kept_client_gone, merged_client_exists.
 */
create function public.undo_client_merge(p_merge uuid) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  m public.client_merges;
  keep public.clients;
  back uuid;
begin
  select * into m from public.client_merges
    where id = p_merge and organization_id in (select public.my_organization_ids());
  if m.id is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(m.organization_id);
  if not private.owns_upgrade(m.organization_id, 'c0000000-0000-4000-8000-000000000006') then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  -- The merge, then the kept client (a merge takes clients only): two undos of one merge queue, the second refused.
  select * into m from public.client_merges where id = p_merge for update;
  if m.undone_at is not null then
    raise exception 'already_undone' using errcode = 'P0001';
  end if;
  if m.merged_at < now() - interval '30 days' then
    raise exception 'undo_expired' using errcode = 'P0001';
  end if;
  select * into keep from public.clients where id = m.kept_client_id and organization_id = m.organization_id for update;
  if keep.id is null then
    raise exception 'kept_client_gone' using errcode = 'P0001';
  end if;
  back := m.merged_client_id;
  if exists (select 1 from public.clients c where c.id = back) then
    raise exception 'merged_client_exists' using errcode = 'P0001';
  end if;

  insert into public.clients (id, organization_id, user_id, name, email, phone, company, status, tags, created_at, updated_at)
  select back, m.organization_id,
    (select u.id from auth.users u where u.id = x.user_id),
    x.name, x.email, x.phone, x.company, x.status, coalesce(x.tags, '{}'), x.created_at, x.updated_at
  from jsonb_populate_record(null::public.clients, m.merged_client) as x;
  insert into private.client_merge_moving (from_client, to_client) values (keep.id, back);

  -- The matches the merge made, before their payments move back (the engine may match them again there).
  delete from public.payment_matches where id = any (private.merge_ids(m.moved, 'payment_matches'));
  update public.booking_appointments set client_id = back
    where id = any (private.merge_ids(m.moved, 'booking_appointments')) and client_id = keep.id;
  update public.payment_expectations set client_id = back
    where id = any (private.merge_ids(m.moved, 'payment_expectations')) and client_id = keep.id;
  update public.transactions set client_id = back
    where id = any (private.merge_ids(m.moved, 'transactions')) and client_id = keep.id;
  update public.invoices set client_id = back
    where id = any (private.merge_ids(m.moved, 'invoices')) and client_id = keep.id;
  update public.recurring_invoices set client_id = back
    where id = any (private.merge_ids(m.moved, 'recurring_invoices')) and client_id = keep.id;
  update public.rules set set_client_id = back
    where id = any (private.merge_ids(m.moved, 'rules')) and set_client_id = keep.id;
  update public.client_notes set client_id = back
    where id = any (private.merge_ids(m.moved, 'client_notes')) and client_id = keep.id;
  update public.crm_cards set client_id = back
    where id = any (private.merge_ids(m.moved, 'crm_cards')) and client_id = keep.id;
  update public.payer_aliases set client_id = back
    where id = any (private.merge_ids(m.moved, 'payer_aliases')) and client_id = keep.id;
  update private.import_staged_rows r set client_id = back
    from jsonb_to_recordset(coalesce(m.moved -> 'import_staged_rows', '[]'::jsonb)) as s (batch_id uuid, ord integer)
    where r.batch_id = s.batch_id and r.ord = s.ord and r.client_id = keep.id;

  insert into public.payer_aliases (id, organization_id, alias, client_id, created_by, created_at)
  select a.id, m.organization_id, a.alias, back, (select u.id from auth.users u where u.id = a.created_by), a.created_at
  from jsonb_populate_recordset(null::public.payer_aliases, coalesce(m.dropped -> 'payer_aliases', '[]'::jsonb)) as a
  on conflict do nothing;
  insert into public.crm_cards (id, organization_id, pipeline_id, stage_id, client_id, owner_id, follow_up_on, created_at, updated_at)
  select c.id, m.organization_id, c.pipeline_id,
    coalesce((select s.id from public.crm_stages s where s.id = c.stage_id and s.pipeline_id = c.pipeline_id),
      (select s.id from public.crm_stages s where s.pipeline_id = c.pipeline_id order by s.position limit 1)),
    back, (select u.id from auth.users u where u.id = c.owner_id), c.follow_up_on, c.created_at, c.updated_at
  from jsonb_populate_recordset(null::public.crm_cards, coalesce(m.dropped -> 'crm_cards', '[]'::jsonb)) as c
  where exists (select 1 from public.crm_pipelines p where p.id = c.pipeline_id and p.organization_id = m.organization_id)
    and exists (select 1 from public.crm_stages s where s.pipeline_id = c.pipeline_id)
  on conflict do nothing;

  -- The kept client's fields the merge changed, where they still hold what the merge wrote.
  update public.clients c set
    name = case when c.name is not distinct from m.kept_after ->> 'name' then m.kept_before ->> 'name' else c.name end,
    email = case when c.email is not distinct from m.kept_after ->> 'email' then m.kept_before ->> 'email' else c.email end,
    phone = case when c.phone is not distinct from m.kept_after ->> 'phone' then m.kept_before ->> 'phone' else c.phone end,
    company = case when c.company is not distinct from m.kept_after ->> 'company' then m.kept_before ->> 'company' else c.company end,
    status = case when c.status::text is not distinct from m.kept_after ->> 'status'
      then (m.kept_before ->> 'status')::public.client_status else c.status end,
    tags = case when to_jsonb(c.tags) = m.kept_after -> 'tags'
      then coalesce(array(select jsonb_array_elements_text(m.kept_before -> 'tags')), '{}') else c.tags end
  where c.id = keep.id and m.kept_before is distinct from m.kept_after;

  delete from private.client_merge_moving where from_client = keep.id and to_client = back;
  update public.client_merges set undone_at = now(), undone_by = (select auth.uid()) where id = m.id;
  return back;
end
$$;

-- 6 -------------------------------------------------------------------------------------------

/** Says two clients of one organization are not duplicates (the duplicates screen hides the pair). Codes: not_found, same_client, upgrade_inactive. */
create function public.dismiss_client_duplicates(p_a uuid, p_b uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  org uuid;
begin
  select c.organization_id into org from public.clients c
  where c.id = p_a and c.organization_id in (select public.my_organization_ids())
    and c.organization_id = (select b.organization_id from public.clients b where b.id = p_b);
  if org is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  if p_a = p_b then
    raise exception 'same_client' using errcode = 'P0001';
  end if;
  perform private.crm_require(org, 'c0000000-0000-4000-8000-000000000006');
  insert into public.client_duplicate_dismissals (organization_id, client_a, client_b, dismissed_by)
  values (org, least(p_a, p_b), greatest(p_a, p_b), (select auth.uid()))
  on conflict do nothing;
end
$$;

-- Grants ---------------------------------------------------------------------------------------

revoke execute on function private.merge_moving(uuid, uuid), private.merge_ids(jsonb, text) from public, anon, authenticated;
revoke execute on function public.merge_clients(uuid, uuid), public.undo_client_merge(uuid),
  public.dismiss_client_duplicates(uuid, uuid)
from public, anon, authenticated;
grant execute on function public.merge_clients(uuid, uuid), public.undo_client_merge(uuid),
  public.dismiss_client_duplicates(uuid, uuid)
to authenticated;
