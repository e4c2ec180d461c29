-- Imports that cannot stall the server (docs/decisions/016-imports.md, "Limits, one import at a
-- time, work in small statements"; docs/security.md, Imports).
--
-- * One file import at a time per organization, as a database claim (so it holds across server
--   instances): a file batch that is being read, waits as a preview or is being committed is the
--   claim (a partial unique index). A second import is refused ('import_in_progress'). The claim
--   gives way to a reading whose process is gone (no sign of life for two minutes), to a preview
--   left for a day, and to the same member's next file (their waiting preview is replaced).
--   Mail sync batches ('email') are serialized by the sync's own claim and take none.
-- * The preview is computed once, while the rows are staged: each chunk's rows are planned
--   (new / duplicate / deleted, client candidates) as they are written, and the batch keeps the
--   counts. The preview page reads them and one page of rows; nothing recomputes the plan of a
--   whole file on a page view.
-- * Work in small statements: staging, commit and undo go chunk by chunk (the server sizes the
--   chunks by time), each chunk its own short transaction, so no statement holds the embedded
--   database (one connection, docs/decisions/026-embedded-database-thread.md) for long. Their
--   statements plan each row by index lookups, so a chunk costs the same at any point of a
--   batch and for any size of organization, and they keep one generic plan per session
--   (planning them afresh cost more than running them on a chunk; the plan's shape depends on
--   no table's size, so it stays right as the tables grow). A
--   commit or undo left half-way (the process stopped) is 'committing' / 'undoing' and goes on
--   from where it was the next time it is asked for.
-- * Bounds in SQL too: at most 100,000 payments per batch (numbered 1 to 100,000) and 5,000
--   rows per chunk, whatever a caller sends.

-- ---------------------------------------------------------------------------------------------
-- Batches: the new states, the preview's counts, and the signs of life.
-- ---------------------------------------------------------------------------------------------

alter table public.import_batches drop constraint import_batches_status_check;
alter table public.import_batches add constraint import_batches_status_check
  check (status in ('staged', 'committing', 'committed', 'undoing', 'undone'));

alter table public.import_batches
  -- When the file was read whole (null while it is being read: rows may still be added).
  add column staged_at timestamptz,
  -- The last sign of life of the process reading, committing or undoing the batch.
  add column worked_at timestamptz not null default now(),
  -- The staged rows committed so far (by ord): a commit goes on from there.
  add column commit_ord integer not null default 0 check (commit_ord >= 0),
  -- What committing would do, as planned while the rows were staged (the preview's counts).
  add column preview_new_count integer not null default 0 check (preview_new_count >= 0),
  add column preview_duplicate_count integer not null default 0 check (preview_duplicate_count >= 0),
  add column preview_deleted_count integer not null default 0 check (preview_deleted_count >= 0),
  add column preview_matched_count integer not null default 0 check (preview_matched_count >= 0),
  add column preview_review_count integer not null default 0 check (preview_review_count >= 0),
  add column preview_unmatched_count integer not null default 0 check (preview_unmatched_count >= 0);

update public.import_batches set staged_at = created_at;

alter table private.import_staged_rows
  add column state text check (state in ('new', 'duplicate', 'deleted')),
  add column candidates integer check (candidates >= 0),
  add column client_id uuid;
-- "An earlier row of the batch has this key", asked for each row as it is planned.
create index import_staged_rows_key_idx on private.import_staged_rows (batch_id, import_key, ord);

-- Client matching looks up a chunk's payers by name key and by email, not every client per chunk.
create index clients_org_payer_key_idx on public.clients (organization_id, public.payer_key(name));
create index clients_org_email_key_idx on public.clients (organization_id, lower(email));

-- The claim: one file import of an organization at a time. Set by stage_import for a file (not
-- for mail sync batches); a batch staged before this migration holds none.
alter table public.import_batches add column claim boolean not null default false;
create unique index import_batches_one_import_idx on public.import_batches (organization_id)
  where claim and status in ('staged', 'committing');

-- ---------------------------------------------------------------------------------------------
-- The plan of a staged row: what committing it would do now. The one definition, used while
-- staging (each chunk), by each commit chunk, and by import_plan (a whole batch).
-- ---------------------------------------------------------------------------------------------

-- 'new', 'duplicate' (its key is already a transaction, or an earlier row of the batch has it:
-- `nth` > 1 among the rows planned together, or an earlier staged row) or 'deleted' (a user
-- deleted the transaction of that key), and the clients its payer matches (a saved alias wins
-- over names and emails), the client when exactly one. Each a lookup by index, so a chunk
-- costs the same per row whatever its size and whatever the planner guesses of it. Without a
-- SET clause and not security definer (every name schema-qualified), so that PostgreSQL inlines
-- it into the security definer statements that call it, as a lateral subquery.
create function private.import_row_plan(org uuid, batch uuid, p_ord integer, p_key text, p_nth bigint, p_payer_key text, p_email_key text)
returns table (state text, candidates integer, client_id uuid)
language sql stable
as $$
  select
    case
      when p_nth > 1 then 'duplicate'
      -- Scalar subqueries, not exists: PostgreSQL may turn an exists into one hash of every key of
      -- the organization per statement, which grows with the organization, not with the chunk.
      when (select true from private.import_staged_rows e where e.batch_id = batch and e.import_key = p_key and e.ord < p_ord limit 1) then 'duplicate'
      when (select true from public.transactions t where t.organization_id = org and t.import_key = p_key and t.import_key is not null limit 1) then 'duplicate'
      when (select true from public.import_tombstones d where d.organization_id = org and d.import_key = p_key limit 1) then 'deleted'
      else 'new'
    end,
    m.candidates, m.client_id
  from (
    select count(*)::integer as candidates, case when count(*) = 1 then min(x.id::text)::uuid end as client_id
    from (
      select a.client_id as id from public.payer_aliases a where a.organization_id = org and a.alias_key = p_payer_key
      union
      select c.id from public.clients c
      where c.organization_id = org and public.payer_key(c.name) = p_payer_key
        and not exists (select 1 from public.payer_aliases a where a.organization_id = org and a.alias_key = p_payer_key)
      union
      select c.id from public.clients c
      where p_email_key <> '' and c.organization_id = org and lower(c.email) = p_email_key
        and not exists (select 1 from public.payer_aliases a where a.organization_id = org and a.alias_key = p_payer_key)
    ) x
  ) m
$$;
revoke execute on function private.import_row_plan(uuid, uuid, integer, text, bigint, text, text) from public;

-- A whole batch's plan (preview_import, preview_import_rows, commit_import), by the same rules.
create or replace function private.import_plan(batch uuid)
returns table (
  ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
  payment_method public.payment_method, raw_payer text, description text, state text,
  candidates integer, client_id uuid
)
language sql stable security definer set search_path = ''
as $$
  select r.ord, r.import_key, r.external_id, r.amount, r.fee, r.date_received, r.payment_method, r.raw_payer,
    r.description, p.state, p.candidates, p.client_id
  from (
    select s.*, row_number() over (partition by s.import_key order by s.ord) as nth
    from private.import_staged_rows s where s.batch_id = batch
  ) r
  cross join lateral private.import_row_plan((select b.organization_id from public.import_batches b where b.id = batch), batch,
    r.ord, r.import_key, r.nth, public.payer_key(r.raw_payer), coalesce(lower(r.payer_email), '')) p
$$;

-- ---------------------------------------------------------------------------------------------
-- Staging: the claim, the chunks (planned as they are written), the end of the reading.
-- ---------------------------------------------------------------------------------------------

-- How long a reading may go without a sign of life before its batch counts as abandoned.
create function private.import_reading_timeout() returns interval
language sql immutable set search_path = ''
as $$ select interval '2 minutes' $$;
revoke execute on function private.import_reading_timeout() from public;

-- Removes the organization's file batches that no longer hold its claim: a preview left for a
-- day, a reading whose process is gone.
create function private.clear_stale_imports(org uuid) returns void
language sql security definer set search_path = ''
as $$
  delete from public.import_batches b
  where b.organization_id = org and b.status = 'staged'
    and (b.created_at < now() - interval '1 day'
      or (b.claim and b.staged_at is null and b.worked_at < now() - private.import_reading_timeout()));
$$;
revoke execute on function private.clear_stale_imports(uuid) from public;

-- The import that stops the caller's next file import of the organization, if any: being read,
-- waiting as someone else's preview, or being committed. (The caller's own waiting preview
-- gives way to their next file.) What the upload screen says, and links to.
create function public.blocking_import(org_id uuid)
returns table (id uuid, file_name text, status text, reading boolean, who text, started_at timestamptz)
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_member(org_id);
  perform private.clear_stale_imports(org_id);
  return query
  select b.id, b.file_name, b.status, b.staged_at is null, coalesce(nullif(p.full_name, ''), p.email), b.created_at
  from public.import_batches b
  left join public.profiles p on p.user_id = b.user_id
  where b.organization_id = org_id and b.claim and b.status in ('staged', 'committing')
    and not (b.status = 'staged' and b.staged_at is not null and b.user_id = (select auth.uid()))
  limit 1;
end
$$;

-- Creates a batch (the claim, for a file import), with its first rows if any.
create or replace function public.stage_import(
  org_id uuid, p_source text, p_file_name text, p_rows jsonb,
  p_rows_read integer, p_ignored integer, p_failed integer, p_failures jsonb
) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  batch uuid;
begin
  perform private.require_member(org_id);
  if p_source is null or p_source not in ('venmo', 'paypal', 'cashapp', 'chase', 'bofa', 'generic', 'email') then
    raise exception 'invalid_source' using errcode = 'P0001';
  end if;
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' or p_failures is null or jsonb_typeof(p_failures) <> 'array'
     or coalesce(p_rows_read, -1) < 0 or coalesce(p_ignored, -1) < 0 or coalesce(p_failed, -1) < 0 then
    raise exception 'invalid_batch' using errcode = 'P0001';
  end if;
  perform private.clear_stale_imports(org_id);
  if p_source <> 'email' then
    -- The member's own waiting preview gives way to their next file.
    delete from public.import_batches b
    where b.organization_id = org_id and b.claim and b.status = 'staged' and b.staged_at is not null
      and b.user_id = (select auth.uid());
  end if;
  begin
    insert into public.import_batches (organization_id, user_id, source, file_name, rows_read, ignored_count,
      failed_count, failures, claim)
    values (org_id, (select auth.uid()), p_source, left(p_file_name, 255), p_rows_read, p_ignored, p_failed, p_failures,
      p_source <> 'email')
    returning id into batch;
  exception when unique_violation then
    raise exception 'import_in_progress' using errcode = 'P0001';
  end;
  if jsonb_array_length(p_rows) > 0 then
    perform public.stage_import_rows(batch, p_rows);
  end if;
  return batch;
end
$$;

-- Appends one chunk of normalised rows to a batch the caller is reading, each planned as it is
-- written; the batch's preview counts grow with it. Returns the batch's payment count so far.
-- An empty chunk is a sign of life.
create or replace function public.stage_import_rows(batch_id uuid, p_rows jsonb) returns integer
language plpgsql security definer set search_path = '' set plan_cache_mode = force_generic_plan
as $$
declare
  b public.import_batches;
  c record;
  total integer;
begin
  b := private.own_staged_batch(batch_id);
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' or jsonb_array_length(p_rows) > 5000
     or exists (select 1 from jsonb_to_recordset(p_rows) as j (ord integer) where j.ord is null or j.ord not between 1 and 100000) then
    raise exception 'invalid_batch' using errcode = 'P0001';
  end if;
  if b.staged_at is not null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  if b.payment_count + jsonb_array_length(p_rows) > 100000 then
    raise exception 'too_many_rows' using errcode = 'P0001';
  end if;
  with r as materialized (
    select j.*, row_number() over (partition by j.import_key order by j.ord) as nth
    from jsonb_to_recordset(p_rows) as j (
      ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
      payment_method public.payment_method, raw_payer text, payer_email text, description text)
  ),
  inserted as (
    insert into private.import_staged_rows (batch_id, ord, import_key, external_id, amount, fee, date_received,
      payment_method, raw_payer, payer_email, description, state, candidates, client_id)
    select b.id, r.ord, r.import_key, r.external_id, r.amount, r.fee, r.date_received, r.payment_method, r.raw_payer,
      r.payer_email, r.description, p.state, p.candidates, p.client_id
    from r
    cross join lateral private.import_row_plan(b.organization_id, b.id, r.ord, r.import_key, r.nth,
      public.payer_key(r.raw_payer), coalesce(lower(r.payer_email), '')) p
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

-- Records the file's counts once it is read whole: from then on the batch is a preview.
create or replace function public.finish_import_stage(batch_id uuid, p_rows_read integer, p_ignored integer, p_failed integer, p_failures jsonb)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  b public.import_batches;
begin
  b := private.own_staged_batch(batch_id);
  if b.staged_at is not null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  if p_failures is null or jsonb_typeof(p_failures) <> 'array'
     or coalesce(p_rows_read, -1) < 0 or coalesce(p_ignored, -1) < 0 or coalesce(p_failed, -1) < 0 then
    raise exception 'invalid_batch' using errcode = 'P0001';
  end if;
  update public.import_batches x set rows_read = p_rows_read, ignored_count = p_ignored, failed_count = p_failed,
    failures = p_failures, staged_at = now(), worked_at = now()
  where x.id = b.id;
end
$$;

-- One page of a staged batch's rows with what committing each would do, as planned at staging.
create function public.staged_import_rows(batch_id uuid, first_ord integer, max_rows integer)
returns table (ord integer, date_received date, amount numeric, raw_payer text, external_id text, state text, candidates integer)
language plpgsql stable security definer set search_path = ''
as $$
declare
  org uuid;
begin
  select b.organization_id into org from public.import_batches b where b.id = batch_id and b.status in ('staged', 'committing');
  if org is null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(org);
  return query
  select r.ord, r.date_received, r.amount, r.raw_payer, r.external_id, r.state, r.candidates
  from private.import_staged_rows r
  where r.batch_id = staged_import_rows.batch_id
    and r.ord between coalesce(first_ord, 1) and coalesce(first_ord, 1) + least(greatest(coalesce(max_rows, 50), 0), 500) - 1
  order by r.ord;
end
$$;

-- Any member may discard a waiting preview (as any member may commit it); a file still being
-- read is left to its reading, unless that reading is gone.
create function public.discard_import(batch_id uuid) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  b public.import_batches;
begin
  select * into b from public.import_batches x where x.id = batch_id for update;
  if b.id is null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(b.organization_id);
  if b.status <> 'staged' then
    raise exception 'already_committed' using errcode = 'P0001';
  end if;
  if b.staged_at is null and b.worked_at >= now() - private.import_reading_timeout() then
    raise exception 'still_reading' using errcode = 'P0001';
  end if;
  delete from public.import_batches x where x.id = b.id;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Commit and undo, chunk by chunk.
-- ---------------------------------------------------------------------------------------------

-- The staged rows go once the batch is committed (not when its commit begins).
drop trigger import_batches_drop_staged_rows on public.import_batches;
create trigger import_batches_drop_staged_rows
  after update of status on public.import_batches
  for each row when (old.status in ('staged', 'committing') and new.status not in ('staged', 'committing'))
  execute function private.drop_staged_rows();

-- Commits the next `max_rows` staged rows of a batch (planned now: a key imported or deleted
-- since the preview is skipped), in the caller's transaction. The batch is 'committing' until
-- its last row, then 'committed' with its counts. Two callers at once take turns on the batch's
-- row lock and share the work; one that stopped half-way is continued by the next call.
create function public.commit_import_chunk(batch_id uuid, max_rows integer)
returns table (done boolean, committed integer, total integer, created_count integer, duplicate_count integer,
  deleted_count integer, matched_count integer, review_count integer, unmatched_count integer)
language plpgsql security definer set search_path = '' set plan_cache_mode = force_generic_plan
as $$
declare
  b public.import_batches;
  n integer := least(greatest(coalesce(max_rows, 500), 1), 5000);
  c record;
  finished boolean;
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

  -- The next n ords (a range of the primary key, so the chunk costs the same at any point of
  -- the batch; the stager numbers rows 1, 2, 3…).
  with chunk as materialized (
    select s.ord, s.import_key, s.external_id, s.amount, s.fee, s.date_received, s.payment_method, s.raw_payer,
      s.payer_email, s.description
    from private.import_staged_rows s
    where s.batch_id = b.id and s.ord > b.commit_ord and s.ord <= b.commit_ord + n
  ),
  plan as materialized (
    select r.*, p.state, p.candidates, p.client_id as matched_client
    from (select k.*, row_number() over (partition by k.import_key order by k.ord) as nth from chunk k) r
    cross join lateral private.import_row_plan(b.organization_id, b.id, r.ord, r.import_key, r.nth,
      public.payer_key(r.raw_payer), coalesce(lower(r.payer_email), '')) p
  ),
  inserted as (
    insert into public.transactions (organization_id, user_id, client_id, external_id, amount, date_received,
      category, payment_method, description, import_source, raw_payer, fee, import_batch_id, import_key)
    select b.organization_id, b.user_id, p.matched_client, p.external_id, p.amount, p.date_received,
      (case when p.candidates = 1 then 'matched' when p.candidates > 1 then 'review' else 'unmatched' end)::public.transaction_category,
      p.payment_method, p.description, b.source, p.raw_payer, p.fee, b.id, p.import_key
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

-- Removes up to `max_rows` of the transactions a batch created that nobody has edited since
-- (no tombstones: an undone import may come again). The batch is 'undoing' until none is left,
-- then 'undone'. Returns whether it is done and how many were removed so far.
create function public.undo_import_chunk(batch_id uuid, max_rows integer)
returns table (done boolean, removed integer)
language plpgsql security definer set search_path = '' set plan_cache_mode = force_generic_plan
as $$
declare
  b public.import_batches;
  n integer := least(greatest(coalesce(max_rows, 500), 1), 5000);
  gone integer;
begin
  select * into b from public.import_batches x where x.id = batch_id for update;
  if b.id is null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(b.organization_id);
  if b.status = 'undone' then
    raise exception 'already_undone' using errcode = 'P0001';
  end if;
  if b.status not in ('committed', 'undoing') then
    raise exception 'not_committed' using errcode = 'P0001';
  end if;
  perform set_config('app.undoing_import_batch', b.id::text, true);
  delete from public.transactions t
  where t.id in (
    select x.id from public.transactions x
    where x.organization_id = b.organization_id and x.import_batch_id = b.id and x.updated_at = x.created_at
    limit n
  );
  get diagnostics gone = row_count;
  perform set_config('app.undoing_import_batch', '', true);
  update public.import_batches x set
    undone_count = x.undone_count + gone,
    worked_at = now(),
    status = case when gone < n then 'undone' else 'undoing' end,
    undone_at = case when gone < n then now() end,
    undone_by = case when gone < n then (select auth.uid()) end
  where x.id = b.id;
  return query select gone < n, x.undone_count from public.import_batches x where x.id = b.id;
end
$$;

revoke execute on function public.blocking_import(uuid), public.staged_import_rows(uuid, integer, integer),
  public.discard_import(uuid), public.commit_import_chunk(uuid, integer), public.undo_import_chunk(uuid, integer)
  from public, anon, authenticated;
grant execute on function public.blocking_import(uuid), public.staged_import_rows(uuid, integer, integer),
  public.discard_import(uuid), public.commit_import_chunk(uuid, integer), public.undo_import_chunk(uuid, integer)
  to authenticated;

-- Batches staged before this migration: their rows and counts planned once, here.
update private.import_staged_rows s set state = p.state, candidates = p.candidates, client_id = p.client_id
from public.import_batches b cross join lateral private.import_plan(b.id) p
where b.status = 'staged' and s.batch_id = b.id and s.ord = p.ord;
update public.import_batches b set
  preview_new_count = c.n_new, preview_duplicate_count = c.n_duplicate, preview_deleted_count = c.n_deleted,
  preview_matched_count = c.n_matched, preview_review_count = c.n_review, preview_unmatched_count = c.n_unmatched
from (
  select r.batch_id,
    (count(*) filter (where r.state = 'new'))::integer as n_new,
    (count(*) filter (where r.state = 'duplicate'))::integer as n_duplicate,
    (count(*) filter (where r.state = 'deleted'))::integer as n_deleted,
    (count(*) filter (where r.state = 'new' and r.candidates = 1))::integer as n_matched,
    (count(*) filter (where r.state = 'new' and r.candidates > 1))::integer as n_review,
    (count(*) filter (where r.state = 'new' and r.candidates = 0))::integer as n_unmatched
  from private.import_staged_rows r group by r.batch_id
) c
where b.id = c.batch_id and b.status = 'staged';
