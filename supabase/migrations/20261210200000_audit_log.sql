-- The activity audit log (docs/product.md, Audit log; docs/decisions/053-audit-log.md), with CRM
-- Enterprise (c0000000-0000-4000-8000-000000000006): who changed what on clients, payments,
-- invoices and the organization's settings, written by statement triggers in the changing
-- transaction, append-only, read by owners.
--
-- * One row per changed row: the actor (auth.uid(), or null for the system with the job or path
--   that wrote, `p2p.audit_source`, else 'system'), the entity, the action, the changed fields as
--   {field: [old, new]} without noise columns (updated_at, keys derived from other columns), and a
--   label (a client's name, a payment's payer and amount) so that deleted things stay readable.
-- * A statement that changes more than 20 rows of one organization writes one summary row per
--   organization instead (row_count, no entity): an import of 100,000 payments is not 100,000 events.
-- * An organization without the upgrade pays one indexed `exists` per statement and nothing else.
-- * Append-only: no role the app uses (authenticated, anon, service_role) may update or delete a
--   row, and triggers refuse updates and truncation to everyone; a row is deleted only with its
--   organization or after the two years it is kept (the daily job `audit-log-pruning`).

create table public.audit_events (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  occurred_at timestamptz not null default now(),
  -- The member who made the change (no foreign key: the log outlives accounts), or null for the system.
  actor_id uuid,
  -- The member's name (or email) at the time; for the system, the job or path that wrote ('system', 'email-sync', …).
  actor_label text not null check (char_length(actor_label) between 1 and 200),
  entity_type text not null check (entity_type in (
    'client', 'payment', 'invoice', 'organization', 'booking_settings', 'messaging_settings', 'payment_handles', 'member')),
  -- The row changed; null for a summary of many rows (row_count > 1).
  entity_id uuid,
  action text not null check (action in ('created', 'updated', 'deleted')),
  -- {field: [old, new]}; on creation the values set, on deletion the values it had.
  changes jsonb not null default '{}'::jsonb check (jsonb_typeof(changes) = 'object'),
  -- A client's name, a payment's payer, an invoice's recipient, a member's name, at the time.
  label text check (char_length(label) <= 200),
  -- A payment's amount, an invoice's total.
  amount numeric(14, 2),
  row_count integer not null default 1 check (row_count between 1 and 100000000),
  check ((entity_id is null) = (row_count > 1))
);
create index audit_events_org_idx on public.audit_events (organization_id, occurred_at desc, id desc);
create index audit_events_org_entity_idx on public.audit_events (organization_id, entity_type, occurred_at desc, id desc);
create index audit_events_occurred_idx on public.audit_events (occurred_at);

alter table public.audit_events enable row level security;
revoke all on public.audit_events from public, anon, authenticated, service_role;
-- Written only by the triggers below (security definer); read by owners.
grant select on public.audit_events to authenticated, service_role;
create policy "audit_events: owners read their organization's log"
  on public.audit_events for select to authenticated
  using (organization_id in (select public.my_organization_ids('owner')));

-- Updates and truncation are refused to everyone, the owner role included.
create function private.audit_events_refuse() returns trigger
language plpgsql set search_path = ''
as $$
begin
  raise exception 'audit_append_only' using errcode = 'P0001';
end
$$;
revoke execute on function private.audit_events_refuse() from public, anon, authenticated;
create trigger audit_events_no_update before update on public.audit_events
  for each statement execute function private.audit_events_refuse();
create trigger audit_events_no_truncate before truncate on public.audit_events
  for each statement execute function private.audit_events_refuse();

-- A row is deleted only when its organization is gone (the cascade of its deletion) or past the
-- two years it is kept.
create function private.audit_events_guard_delete() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if old.occurred_at >= now() - interval '2 years'
      and exists (select 1 from public.organizations o where o.id = old.organization_id) then
    raise exception 'audit_append_only' using errcode = 'P0001';
  end if;
  return old;
end
$$;
revoke execute on function private.audit_events_guard_delete() from public, anon, authenticated;
create trigger audit_events_guard_delete before delete on public.audit_events
  for each row execute function private.audit_events_guard_delete();

-- Whether any of these organizations (still there) owns CRM Enterprise: the one question an
-- organization without it pays per statement.
create function private.audit_wanted(p_organizations uuid[]) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from public.organization_module_upgrades u join public.organizations o on o.id = u.organization_id
    where u.organization_id = any (p_organizations) and u.upgrade_id = 'c0000000-0000-4000-8000-000000000006')
$$;
revoke execute on function private.audit_wanted(uuid[]) from public, anon, authenticated;

-- Columns that never make an event nor show in one: timestamps kept by triggers, keys derived from
-- other columns, internal links, secrets, gear balances.
create function private.audit_noise() returns text[]
language sql immutable set search_path = ''
as $$
  select array['id', 'organization_id', 'created_at', 'updated_at', 'user_id', 'created_by', 'name_key', 'company_key',
    'description_key', 'import_key', 'import_batch_id', 'subtotal', 'public_token_hash', 'expectation_id', 'sent_at',
    'gears_owned', 'gears_remaining', 'joined_at', 'timezone_confirmed']
$$;
revoke execute on function private.audit_noise() from public, anon, authenticated;

-- Rows per organization and statement written one by one; past it, one summary.
create function private.audit_row_limit() returns integer
language sql immutable set search_path = ''
as $$ select 20 $$;
revoke execute on function private.audit_row_limit() from public, anon, authenticated;

-- Who is writing: the member (auth.uid(), with their name or email now); in a transaction of the
-- server as the system on a member's behalf (a role change), the member it names in
-- `p2p.audit_actor` (app/.server/db/audit.ts); else the system with the job or path that set
-- `p2p.audit_source`, or 'system'. A signed-in user's own id always wins over the setting.
create function private.audit_actor(out actor_id uuid, out actor_label text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  actor_id := coalesce((select auth.uid()), nullif(current_setting('p2p.audit_actor', true), '')::uuid);
  if actor_id is not null then
    select coalesce(nullif(btrim(p.full_name), ''), p.email) into actor_label from public.profiles p where p.user_id = actor_id;
    actor_label := coalesce(actor_label, (select u.email from auth.users u where u.id = actor_id), 'member');
  else
    actor_label := coalesce(nullif(current_setting('p2p.audit_source', true), ''), 'system');
  end if;
  actor_label := left(actor_label, 200);
end
$$;
revoke execute on function private.audit_actor() from public, anon, authenticated;

-- The events of one statement's rows: p_rows is a list of {org, id, old, new} (old null on
-- insert, new null on delete) of organizations that own the upgrade, at most
-- private.audit_row_limit() per organization. An update that changed only noise writes nothing.
create function private.audit_write(p_entity text, p_action text, p_rows jsonb) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  a record;
  noise text[] := private.audit_noise();
begin
  select * into a from private.audit_actor();
  with incoming as (
    select (r ->> 'org')::uuid as org, (r ->> 'id')::uuid as id, nullif(r -> 'old', 'null'::jsonb) as o,
      nullif(r -> 'new', 'null'::jsonb) as n
    from jsonb_array_elements(p_rows) r
  ), changed as (
    select c.org, c.id, coalesce(c.n, c.o) as j,
      coalesce((select jsonb_object_agg(k, jsonb_build_array(c.o -> k, c.n -> k))
        from jsonb_object_keys(coalesce(c.n, c.o)) k
        where k <> all (noise)
          and (c.o -> k) is distinct from (c.n -> k)
          -- A creation lists the values set, a deletion the values it had: not the empty ones.
          and not (c.o is null and (c.n -> k) in ('null'::jsonb, '[]'::jsonb, '""'::jsonb))
          and not (c.n is null and (c.o -> k) in ('null'::jsonb, '[]'::jsonb, '""'::jsonb))), '{}'::jsonb) as changes
    from incoming c
  )
  insert into public.audit_events (organization_id, actor_id, actor_label, entity_type, entity_id, action, changes, label, amount)
  select x.org, a.actor_id, a.actor_label, p_entity, x.id, p_action, x.changes,
    left(case p_entity
      when 'client' then x.j ->> 'name'
      when 'payment' then coalesce(nullif(x.j ->> 'raw_payer', ''),
        (select cl.name from public.clients cl where cl.id = (x.j ->> 'client_id')::uuid))
      when 'invoice' then coalesce(nullif(x.j ->> 'bill_to_name', ''),
        (select cl.name from public.clients cl where cl.id = (x.j ->> 'client_id')::uuid))
      when 'member' then (select coalesce(nullif(btrim(p.full_name), ''), p.email) from public.profiles p where p.user_id = x.id)
      when 'organization' then x.j ->> 'name'
    end, 200),
    case p_entity when 'payment' then (x.j ->> 'amount')::numeric when 'invoice' then (x.j ->> 'total')::numeric end
  from changed x
  where p_action <> 'updated' or x.changes <> '{}'::jsonb;
end
$$;
revoke execute on function private.audit_write(text, text, jsonb) from public, anon, authenticated;

-- One summary event per organization that changed more rows in one statement than are written one by one.
create function private.audit_summarize(p_entity text, p_action text, p_counts jsonb) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  a record;
begin
  select * into a from private.audit_actor();
  insert into public.audit_events (organization_id, actor_id, actor_label, entity_type, entity_id, action, row_count)
  select e.key::uuid, a.actor_id, a.actor_label, p_entity, null, p_action, e.value::integer
  from jsonb_each_text(p_counts) e;
end
$$;
revoke execute on function private.audit_summarize(text, text, jsonb) from public, anon, authenticated;

-- The statement trigger of every audited table. TG_ARGV[0]: the entity type; TG_ARGV[1]: the
-- column that identifies the entity (its id; the organization for one-row settings; the member's
-- user for memberships). A row of `organizations` is its own organization (audited on update only).
create function private.audit_changes() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  entity text := tg_argv[0];
  idcol text := tg_argv[1];
  action text := case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end;
  counts jsonb;
  small uuid[];
  big jsonb;
  rows jsonb;
begin
  -- Rows per organization of the statement: the input of the one `exists` everyone pays.
  if tg_table_name = 'organizations' then
    if tg_op <> 'UPDATE' then
      return null;
    end if;
    select jsonb_object_agg(g.org, g.n) into counts from (select n.id as org, count(*) as n from new_rows n group by 1) g;
  elsif tg_op = 'DELETE' then
    select jsonb_object_agg(g.org, g.n) into counts from (select o.organization_id as org, count(*) as n from old_rows o group by 1) g;
  else
    select jsonb_object_agg(g.org, g.n) into counts from (select n.organization_id as org, count(*) as n from new_rows n group by 1) g;
  end if;
  if counts is null or not private.audit_wanted(array(select k::uuid from jsonb_object_keys(counts) k)) then
    return null;
  end if;

  -- The organizations that own the upgrade (a statement rarely spans several): one by one up to
  -- the limit, else one summary.
  small := array(select e.key::uuid from jsonb_each_text(counts) e
    where e.value::integer <= private.audit_row_limit() and private.audit_wanted(array[e.key::uuid]));
  select jsonb_object_agg(e.key, e.value) into big from jsonb_each(counts) e
    where (e.value)::integer > private.audit_row_limit() and private.audit_wanted(array[e.key::uuid]);
  if big is not null then
    perform private.audit_summarize(entity, action, big);
  end if;
  if cardinality(small) = 0 then
    return null;
  end if;

  if tg_table_name = 'organizations' then
    select jsonb_agg(jsonb_build_object('org', n.id, 'id', n.id, 'old', to_jsonb(o), 'new', to_jsonb(n))) into rows
    from new_rows n join old_rows o on o.id = n.id
    where n.id = any (small);
  elsif tg_op = 'INSERT' then
    select jsonb_agg(jsonb_build_object('org', x.j ->> 'organization_id', 'id', x.j ->> idcol, 'new', x.j)) into rows
    from (select to_jsonb(n) as j from new_rows n where n.organization_id = any (small)) x;
  elsif tg_op = 'DELETE' then
    select jsonb_agg(jsonb_build_object('org', x.j ->> 'organization_id', 'id', x.j ->> idcol, 'old', x.j)) into rows
    from (select to_jsonb(o) as j from old_rows o where o.organization_id = any (small)) x;
  else
    select jsonb_agg(jsonb_build_object('org', nn.j ->> 'organization_id', 'id', nn.j ->> idcol, 'old', oo.j, 'new', nn.j)) into rows
    from (select to_jsonb(n) as j from new_rows n where n.organization_id = any (small)) nn
    join (select to_jsonb(o) as j from old_rows o where o.organization_id = any (small)) oo
      on oo.j ->> 'organization_id' = nn.j ->> 'organization_id' and oo.j ->> idcol = nn.j ->> idcol;
  end if;
  if rows is not null then
    perform private.audit_write(entity, action, rows);
  end if;
  return null;
end
$$;
revoke execute on function private.audit_changes() from public, anon, authenticated;

-- The audited tables, three statement triggers each (a trigger with transition tables serves one event).
do $$
declare
  t record;
begin
  for t in select * from (values
    ('clients', 'client', 'id'),
    ('transactions', 'payment', 'id'),
    ('invoices', 'invoice', 'id'),
    ('booking_settings', 'booking_settings', 'organization_id'),
    ('messaging_settings', 'messaging_settings', 'organization_id'),
    ('payment_handles', 'payment_handles', 'organization_id'),
    ('organization_members', 'member', 'user_id')) v (tab, entity, idcol)
  loop
    execute format('create trigger audit_inserted after insert on public.%I referencing new table as new_rows
      for each statement execute function private.audit_changes(%L, %L)', t.tab, t.entity, t.idcol);
    execute format('create trigger audit_updated after update on public.%I referencing old table as old_rows new table as new_rows
      for each statement execute function private.audit_changes(%L, %L)', t.tab, t.entity, t.idcol);
    execute format('create trigger audit_deleted after delete on public.%I referencing old table as old_rows
      for each statement execute function private.audit_changes(%L, %L)', t.tab, t.entity, t.idcol);
  end loop;
end
$$;
-- The organization's own settings row: its name, address, description, logo, colours, plan.
create trigger audit_updated after update on public.organizations referencing old table as old_rows new table as new_rows
  for each statement execute function private.audit_changes('organization', 'id');
