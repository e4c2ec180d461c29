-- Imports: received payments from Venmo, PayPal, Cash App and bank exports (and, through the
-- same functions, mail notices), without duplicates, matched to clients (docs/product.md,
-- Imports; docs/decisions/016-imports.md).
--
-- * transactions keep where an import found them: import_source, raw_payer, fee, the batch, and
--   import_key, the dedupe key ('id:<provider>:<external id>', or 'h:<content hash>:<occurrence>')
--   that a partial unique index makes one transaction per key and organization.
-- * import_batches: one per upload (or mail sync run), staged (its normalised rows wait in
--   staged_rows for the preview) → committed → undone, with its counts, who and when.
-- * import_tombstones: the keys of imported transactions a user deleted, so they stay deleted.
-- * payer_aliases: a payer name that means a client (saved from the review queue).
-- * import_mappings: a generic CSV's column mapping, per organization and header signature.
-- * commit_import and undo_import are set-based (a few statements for any number of rows), in
--   the caller's one transaction: writes of one organization serialize on its totals row.

alter table public.transactions
  add column import_source text check (import_source in ('venmo', 'paypal', 'cashapp', 'chase', 'bofa', 'generic', 'email')),
  add column raw_payer text check (char_length(raw_payer) <= 200),
  add column fee numeric(12, 2) check (fee >= 0),
  add column import_batch_id uuid,
  add column import_key text check (char_length(import_key) <= 300);

create table public.import_batches (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  user_id uuid default auth.uid() references auth.users (id) on delete set null,
  source text not null check (source in ('venmo', 'paypal', 'cashapp', 'chase', 'bofa', 'generic', 'email')),
  file_name text check (char_length(file_name) <= 255),
  status text not null default 'staged' check (status in ('staged', 'committed', 'undone')),
  rows_read integer not null default 0 check (rows_read >= 0),
  payment_count integer not null default 0 check (payment_count >= 0),
  ignored_count integer not null default 0 check (ignored_count >= 0),
  failed_count integer not null default 0 check (failed_count >= 0),
  created_count integer not null default 0 check (created_count >= 0),
  duplicate_count integer not null default 0 check (duplicate_count >= 0),
  deleted_count integer not null default 0 check (deleted_count >= 0),
  matched_count integer not null default 0 check (matched_count >= 0),
  unmatched_count integer not null default 0 check (unmatched_count >= 0),
  review_count integer not null default 0 check (review_count >= 0),
  undone_count integer not null default 0 check (undone_count >= 0),
  -- The normalised payments while staged (null once committed): an array of objects with
  -- ord, import_key, external_id, amount, fee, date_received, payment_method, raw_payer,
  -- payer_email, description.
  staged_rows jsonb check (staged_rows is null or jsonb_typeof(staged_rows) = 'array'),
  -- The first failing rows, for the preview: [{line, reason, value}].
  failures jsonb not null default '[]' check (jsonb_typeof(failures) = 'array'),
  created_at timestamptz not null default now(),
  committed_at timestamptz,
  undone_at timestamptz,
  undone_by uuid references auth.users (id) on delete set null,
  unique (organization_id, id)
);
create index import_batches_org_created_idx on public.import_batches (organization_id, created_at desc);
create index import_batches_user_idx on public.import_batches (user_id);
create index import_batches_undone_by_idx on public.import_batches (undone_by);

alter table public.transactions
  add foreign key (organization_id, import_batch_id) references public.import_batches (organization_id, id);
create unique index transactions_org_import_key_idx on public.transactions (organization_id, import_key) where import_key is not null;
create index transactions_org_batch_idx on public.transactions (organization_id, import_batch_id) where import_batch_id is not null;

create table public.import_tombstones (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  import_key text not null check (char_length(import_key) <= 300),
  deleted_at timestamptz not null default now(),
  primary key (organization_id, import_key)
);

create table public.payer_aliases (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- The payer name as the user saved it; alias_key is its lowercased, space-collapsed form.
  alias text not null check (char_length(btrim(alias)) between 1 and 200),
  alias_key text generated always as (lower(regexp_replace(btrim(alias), '\s+', ' ', 'g'))) stored,
  client_id uuid not null,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  foreign key (organization_id, client_id) references public.clients (organization_id, id) on delete cascade,
  unique (organization_id, alias_key)
);
create index payer_aliases_client_idx on public.payer_aliases (organization_id, client_id);
create index payer_aliases_created_by_idx on public.payer_aliases (created_by);

create table public.import_mappings (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  header_signature text not null check (char_length(header_signature) between 1 and 2000),
  -- The header names (as in the file) of each field; external id and description optional.
  date_column text not null check (char_length(date_column) between 1 and 200),
  amount_column text not null check (char_length(amount_column) between 1 and 200),
  payer_column text not null check (char_length(payer_column) between 1 and 200),
  external_id_column text check (char_length(external_id_column) between 1 and 200),
  description_column text check (char_length(description_column) between 1 and 200),
  payment_method public.payment_method not null default 'Other',
  updated_at timestamptz not null default now(),
  primary key (organization_id, header_signature)
);

-- ---------------------------------------------------------------------------------------------
-- RLS: members read all four; aliases and mappings are theirs to write; batches and tombstones
-- are written only by the functions and the delete trigger below.
-- ---------------------------------------------------------------------------------------------

alter table public.import_batches enable row level security;
alter table public.import_tombstones enable row level security;
alter table public.payer_aliases enable row level security;
alter table public.import_mappings enable row level security;
revoke all on public.import_batches, public.import_tombstones, public.payer_aliases, public.import_mappings from public, anon, authenticated;

grant select on public.import_batches, public.import_tombstones to authenticated;
create policy "import_batches: members read their organization's batches"
  on public.import_batches for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "import_tombstones: members read their organization's tombstones"
  on public.import_tombstones for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

grant select, delete on public.payer_aliases to authenticated;
grant insert (organization_id, alias, client_id) on public.payer_aliases to authenticated;
grant update (client_id) on public.payer_aliases to authenticated;
create policy "payer_aliases: members read their organization's aliases"
  on public.payer_aliases for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "payer_aliases: members add aliases to their organization"
  on public.payer_aliases for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()));
create policy "payer_aliases: members update their organization's aliases"
  on public.payer_aliases for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "payer_aliases: members delete their organization's aliases"
  on public.payer_aliases for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

grant select, delete on public.import_mappings to authenticated;
grant insert (organization_id, header_signature, date_column, amount_column, payer_column, external_id_column,
  description_column, payment_method) on public.import_mappings to authenticated;
grant update (date_column, amount_column, payer_column, external_id_column, description_column, payment_method, updated_at)
  on public.import_mappings to authenticated;
create policy "import_mappings: members read their organization's mappings"
  on public.import_mappings for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "import_mappings: members add mappings to their organization"
  on public.import_mappings for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()));
create policy "import_mappings: members update their organization's mappings"
  on public.import_mappings for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "import_mappings: members delete their organization's mappings"
  on public.import_mappings for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- ---------------------------------------------------------------------------------------------
-- A deleted imported transaction leaves a tombstone (not while its organization is being
-- deleted; undo_import leaves none for what it removes: an undone import may be imported
-- again).
-- ---------------------------------------------------------------------------------------------

create function private.transactions_tombstone() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.import_tombstones (organization_id, import_key)
  select distinct o.organization_id, o.import_key from old_rows o
  where o.import_key is not null
    and exists (select 1 from public.organizations g where g.id = o.organization_id)
    and o.import_batch_id::text is distinct from nullif(current_setting('app.undoing_import_batch', true), '')
  on conflict do nothing;
  return null;
end
$$;
revoke execute on function private.transactions_tombstone() from public;
create trigger transactions_tombstone after delete on public.transactions
  referencing old table as old_rows for each statement execute function private.transactions_tombstone();

-- The key payer names and aliases are compared by. Without a SET clause (every name is
-- schema-qualified instead) so that PostgreSQL inlines it: called once per imported row.
create function public.payer_key(name text) returns text
language sql immutable parallel safe
as $$ select pg_catalog.lower(pg_catalog.regexp_replace(pg_catalog.btrim(name), '\s+', ' ', 'g')) $$;
revoke execute on function public.payer_key(text) from public, anon;
grant execute on function public.payer_key(text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- stage_import: a member records a batch's normalised rows and counts for the preview.
-- Abandoned previews of the organization older than a day are removed on the way.
-- ---------------------------------------------------------------------------------------------

create function public.stage_import(
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
  delete from public.import_batches b
  where b.organization_id = org_id and b.status = 'staged' and b.created_at < now() - interval '1 day';
  insert into public.import_batches (organization_id, user_id, source, file_name, rows_read, payment_count,
    ignored_count, failed_count, staged_rows, failures)
  values (org_id, (select auth.uid()), p_source, left(p_file_name, 255), p_rows_read, jsonb_array_length(p_rows),
    p_ignored, p_failed, p_rows, p_failures)
  returning id into batch;
  return batch;
end
$$;

-- The staged rows of a batch as a relation, each with what a commit would do to it now:
-- 'new', 'duplicate' (its key is already a transaction, or an earlier row of the batch has it)
-- or 'deleted' (a user deleted the transaction of that key). Candidates counts the clients its
-- payer matches (a saved alias wins over names and emails).
create function private.import_plan(batch uuid)
returns table (
  ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
  payment_method public.payment_method, raw_payer text, description text, state text,
  candidates integer, client_id uuid
)
language sql stable security definer set search_path = ''
as $$
  with b as (
    select b.organization_id, b.staged_rows from public.import_batches b where b.id = batch
  ),
  rows as (
    select r.*, public.payer_key(r.raw_payer) as payer_key, coalesce(lower(r.payer_email), '') as email_key,
      row_number() over (partition by r.import_key order by r.ord) as nth
    from b, jsonb_to_recordset(b.staged_rows) as r (
      ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
      payment_method public.payment_method, raw_payer text, payer_email text, description text)
  ),
  payers as (select distinct r.payer_key, r.email_key from rows r),
  -- Equality joins only (hash joins): an organization's clients once, by name key and by email.
  client_keys as materialized (
    select c.id, public.payer_key(c.name) as name_key, coalesce(lower(c.email), '') as email_key
    from public.clients c where c.organization_id = (select organization_id from b)
  ),
  by_alias as (
    select p.payer_key, p.email_key, a.client_id
    from payers p join public.payer_aliases a on a.organization_id = (select organization_id from b) and a.alias_key = p.payer_key
  ),
  by_name as (
    select p.payer_key, p.email_key, c.id as client_id from payers p join client_keys c on c.name_key = p.payer_key
    union
    select p.payer_key, p.email_key, c.id from payers p join client_keys c on c.email_key = p.email_key where p.email_key <> ''
  ),
  matches as (
    select m.payer_key, m.email_key, count(distinct m.client_id)::integer as candidates,
      case when count(distinct m.client_id) = 1 then min(m.client_id::text)::uuid end as client_id
    from (
      select * from by_alias
      union all
      select n.* from by_name n
      where not exists (select 1 from by_alias x where x.payer_key = n.payer_key and x.email_key = n.email_key)
    ) m
    group by m.payer_key, m.email_key
  )
  select r.ord, r.import_key, r.external_id, r.amount, r.fee, r.date_received, r.payment_method, r.raw_payer,
    r.description,
    case
      when r.nth > 1 then 'duplicate'
      when exists (select 1 from public.transactions t where t.organization_id = (select organization_id from b) and t.import_key = r.import_key) then 'duplicate'
      when exists (select 1 from public.import_tombstones d where d.organization_id = (select organization_id from b) and d.import_key = r.import_key) then 'deleted'
      else 'new'
    end,
    coalesce(m.candidates, 0), m.client_id
  from rows r
  left join matches m on m.payer_key = r.payer_key and m.email_key = r.email_key
$$;
revoke execute on function private.import_plan(uuid) from public;

-- What committing a staged batch would do now, for its preview: counts per state and per match.
create function public.preview_import(batch_id uuid)
returns table (new_count integer, duplicate_count integer, deleted_count integer, matched_count integer, review_count integer, unmatched_count integer)
language plpgsql stable security definer set search_path = ''
as $$
declare
  org uuid;
begin
  select b.organization_id into org from public.import_batches b where b.id = batch_id and b.status = 'staged';
  if org is null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(org);
  return query
  select count(*) filter (where p.state = 'new')::integer,
    count(*) filter (where p.state = 'duplicate')::integer,
    count(*) filter (where p.state = 'deleted')::integer,
    count(*) filter (where p.state = 'new' and p.candidates = 1)::integer,
    count(*) filter (where p.state = 'new' and p.candidates > 1)::integer,
    count(*) filter (where p.state = 'new' and p.candidates = 0)::integer
  from private.import_plan(batch_id) p;
end
$$;

-- The first rows of a staged batch with what a commit would do to each, for its preview.
create function public.preview_import_rows(batch_id uuid, max_rows integer default 50)
returns table (ord integer, date_received date, amount numeric, raw_payer text, external_id text, state text, candidates integer)
language plpgsql stable security definer set search_path = ''
as $$
declare
  org uuid;
begin
  select b.organization_id into org from public.import_batches b where b.id = batch_id and b.status = 'staged';
  if org is null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(org);
  return query
  select p.ord, p.date_received, p.amount, p.raw_payer, p.external_id, p.state, p.candidates
  from private.import_plan(batch_id) p
  order by p.ord
  limit least(greatest(coalesce(max_rows, 50), 0), 500);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- commit_import: one insert of every new row of the batch (category from the match), the
-- batch's counts, its staged rows dropped. A second commit of the same batch is refused.
-- ---------------------------------------------------------------------------------------------

create function public.commit_import(batch_id uuid)
returns table (created_count integer, duplicate_count integer, deleted_count integer, matched_count integer, review_count integer, unmatched_count integer)
language plpgsql security definer set search_path = ''
as $$
declare
  b public.import_batches;
  counts record;
begin
  select * into b from public.import_batches x where x.id = batch_id for update;
  if b.id is null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(b.organization_id);
  if b.status <> 'staged' then
    raise exception 'already_committed' using errcode = 'P0001';
  end if;

  with plan as materialized (
    select * from private.import_plan(batch_id)
  ), inserted as (
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
  select (select count(*) from inserted)::integer as created,
    (select count(*) from inserted i where i.category = 'matched')::integer as matched,
    (select count(*) from inserted i where i.category = 'review')::integer as review,
    (select count(*) from inserted i where i.category = 'unmatched')::integer as unmatched,
    (select count(*) from plan p where p.state = 'deleted')::integer as deleted
  into counts;

  update public.import_batches x set
    status = 'committed', committed_at = now(), staged_rows = null,
    created_count = counts.created, matched_count = counts.matched, review_count = counts.review,
    unmatched_count = counts.unmatched, deleted_count = counts.deleted,
    duplicate_count = x.payment_count - counts.created - counts.deleted
  where x.id = batch_id
  returning x.created_count, x.duplicate_count, x.deleted_count, x.matched_count, x.review_count, x.unmatched_count
  into created_count, duplicate_count, deleted_count, matched_count, review_count, unmatched_count;
  return next;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- undo_import: removes the batch's transactions that nobody has edited since (updated_at is
-- still created_at), in one statement, leaving no tombstones (they may be imported again). Returns how many were removed; edited ones stay.
-- ---------------------------------------------------------------------------------------------

create function public.undo_import(batch_id uuid) returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  b public.import_batches;
  removed integer;
begin
  select * into b from public.import_batches x where x.id = batch_id for update;
  if b.id is null then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(b.organization_id);
  if b.status = 'undone' then
    raise exception 'already_undone' using errcode = 'P0001';
  end if;
  if b.status <> 'committed' then
    raise exception 'not_committed' using errcode = 'P0001';
  end if;
  -- The delete trigger leaves no tombstone for this batch's rows: an undone import may come again.
  perform set_config('app.undoing_import_batch', b.id::text, true);
  delete from public.transactions t
  where t.organization_id = b.organization_id and t.import_batch_id = b.id and t.updated_at = t.created_at;
  get diagnostics removed = row_count;
  perform set_config('app.undoing_import_batch', '', true);
  update public.import_batches x set status = 'undone', undone_at = now(), undone_by = (select auth.uid()), undone_count = removed
  where x.id = b.id;
  return removed;
end
$$;

revoke execute on function public.stage_import(uuid, text, text, jsonb, integer, integer, integer, jsonb),
  public.preview_import(uuid), public.preview_import_rows(uuid, integer), public.commit_import(uuid), public.undo_import(uuid) from public, anon, authenticated;
grant execute on function public.stage_import(uuid, text, text, jsonb, integer, integer, integer, jsonb),
  public.preview_import(uuid), public.preview_import_rows(uuid, integer), public.commit_import(uuid), public.undo_import(uuid) to authenticated;
