-- Imports plan a chunk of rows at once instead of row by row (docs/decisions/016-imports.md,
-- "Work in small statements"; bench/README.md, imports.ts).
--
-- 20261203030000 planned each staged row by itself (private.import_row_plan, a lateral
-- subquery): three lookups of its key and, for its payer, up to three alias lookups and two
-- client lookups with a union and a count, at staging and again at commit.
-- * private.import_rows_plan plans a chunk given whole (an array of staged rows: the chunk being
--   staged, the chunk being committed, a whole batch) and returns its rows with what committing
--   each would do. Clients are looked up once per payer of the chunk (a file's payers repeat),
--   each row then reading its payer's match from one jsonb map; keys once per row. Index probes
--   and a map, never a join of two sets: the statements keep generic plans, which guess ten rows
--   for a chunk, and a join planned on that guess (a nested loop) costs rows × rows, while a
--   probe costs the same whatever the guess, whatever the size of the organization.
-- * At commit a key already imported is left to the insert (on conflict do nothing, counted as
--   a duplicate): only the tombstones are looked up again. The lookup in the organization's
--   transactions was the insert's own done twice, and the one lookup whose plan could go stale
--   while a commit runs (the table grows by the import itself).
-- * stage_import_rows, commit_import_chunk and import_plan call it, and nothing joins a chunk
--   back to its staged rows (such a join, planned for ten rows, was a nested loop over the
--   batch's rows for every row of the chunk). import_row_plan goes.
-- * The staged rows' batch is checked once per chunk instead of once per row (at the end).
-- The server sizes the chunks by the kind of database (app/.server/imports/staging.ts): about
-- 30 ms on the embedded one, whose one connection every request waits for; the 5,000-row
-- maximum on a PostgreSQL server, where other requests have connections of their own.

create function private.import_rows_plan(org uuid, batch uuid, p_rows private.import_staged_rows[], p_commit boolean)
returns table (
  ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
  payment_method public.payment_method, raw_payer text, payer_email text, description text, state text,
  candidates integer, client_id uuid
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
  -- Each payer of the chunk once (its key computed once), and its clients: those of its saved
  -- aliases if it has any, else those it is the name or the email of.
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
      -- At commit, a key already imported is left to the insert, which skips it (on conflict do
      -- nothing) and counts it as a duplicate: the lookup would only repeat the insert's own. An
      -- earlier row of the batch with the key is a transaction by then, or a deleted one.
      when p_commit then
        case
          when not coalesce((select true from public.import_tombstones d where d.organization_id = org and d.import_key = r.import_key limit 1), false) then 'new'
          when (select true from private.import_staged_rows e where e.batch_id = batch and e.import_key = r.import_key and e.ord < r.ord limit 1) then 'duplicate'
          else 'deleted'
        end
      -- Scalar subqueries, not exists or joins: an index probe per row, never a hash of every
      -- key of the organization.
      when (select true from private.import_staged_rows e where e.batch_id = batch and e.import_key = r.import_key and e.ord < r.ord limit 1) then 'duplicate'
      when (select true from public.transactions t where t.organization_id = org and t.import_key = r.import_key and t.import_key is not null limit 1) then 'duplicate'
      when (select true from public.import_tombstones d where d.organization_id = org and d.import_key = r.import_key limit 1) then 'deleted'
      else 'new'
    end,
    coalesce((m.map -> (r.raw_payer || E'\x1f' || r.email_key) ->> 0)::integer, 0),
    (m.map -> (r.raw_payer || E'\x1f' || r.email_key) ->> 1)::uuid
  from r cross join matched m
$$;
revoke execute on function private.import_rows_plan(uuid, uuid, private.import_staged_rows[], boolean) from public;

-- A whole batch's plan (preview_import, preview_import_rows, commit_import), by the same rules.
create or replace function private.import_plan(batch uuid)
returns table (
  ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
  payment_method public.payment_method, raw_payer text, description text, state text,
  candidates integer, client_id uuid
)
language sql stable security definer set search_path = ''
as $$
  select p.ord, p.import_key, p.external_id, p.amount, p.fee, p.date_received, p.payment_method, p.raw_payer,
    p.description, p.state, p.candidates, p.client_id
  from private.import_rows_plan(
    (select b.organization_id from public.import_batches b where b.id = batch), batch,
    (select array_agg(s order by s.ord) from private.import_staged_rows s where s.batch_id = batch), false) p
$$;

-- Appends one chunk of normalised rows to a batch the caller is reading, planned together as
-- they are written; the batch's preview counts grow with it. Returns the batch's payment count
-- so far. An empty chunk is a sign of life.
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
      payment_method, raw_payer, payer_email, description, state, candidates, client_id)
    select b.id, p.ord, p.import_key, p.external_id, p.amount, p.fee, p.date_received, p.payment_method, p.raw_payer,
      p.payer_email, p.description, p.state, p.candidates, p.client_id
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

-- Commits the next `max_rows` staged rows of a batch (planned again now, together: a key
-- imported or deleted since the preview is skipped, a client added since is matched), in the
-- caller's transaction. The batch is 'committing' until its last row, then 'committed' with
-- its counts. Two callers at once take turns on the batch's row lock and share the work; one
-- that stopped half-way is continued by the next call.
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

  -- The next n ords (a range of the primary key, so the chunk costs the same at any point of
  -- the batch; the stager numbers rows 1, 2, 3…).
  select array_agg(s order by s.ord) into chunk
  from private.import_staged_rows s
  where s.batch_id = b.id and s.ord > b.commit_ord and s.ord <= b.commit_ord + n;

  with plan as materialized (
    select * from private.import_rows_plan(b.organization_id, b.id, chunk, true)
  ),
  inserted as (
    insert into public.transactions (organization_id, user_id, client_id, external_id, amount, date_received,
      category, payment_method, description, import_source, raw_payer, fee, import_batch_id, import_key)
    select b.organization_id, b.user_id, p.client_id, p.external_id, p.amount, p.date_received,
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

drop function private.import_row_plan(uuid, uuid, integer, text, bigint, text, text);

-- The staged rows' batch is checked once per chunk instead of once per row: their one writer,
-- stage_import_rows, locks the batch first (private.own_staged_batch), which proves all that
-- the foreign key's check of each row (some 7 µs a row) did. Removed batches take their staged
-- rows with them, once per statement, as the cascade did.
alter table private.import_staged_rows drop constraint import_staged_rows_batch_id_fkey;

create function private.drop_removed_batches_staged_rows() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from private.import_staged_rows s using removed r where s.batch_id = r.id;
  return null;
end
$$;
revoke execute on function private.drop_removed_batches_staged_rows() from public;
create trigger import_batches_drop_removed_staged_rows
  after delete on public.import_batches
  referencing old table as removed
  for each statement execute function private.drop_removed_batches_staged_rows();
