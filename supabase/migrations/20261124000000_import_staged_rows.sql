-- Staged import rows move from one jsonb value on the batch to a table of their own, so a large
-- file is staged in chunks as it is read (the importing process never holds all its rows, nor
-- one 25 MB JSON text of them): docs/decisions/016-imports.md, "Staging in chunks".
-- `stage_import` keeps its signature (its rows, if any, go to the table); `stage_import_rows`
-- appends a chunk and `finish_import_stage` records the file's counts once it is read.

create table private.import_staged_rows (
  batch_id uuid not null references public.import_batches (id) on delete cascade,
  ord integer not null,
  import_key text not null check (char_length(import_key) <= 300),
  external_id text,
  amount numeric,
  fee numeric,
  date_received date,
  payment_method public.payment_method,
  raw_payer text,
  payer_email text,
  description text,
  primary key (batch_id, ord)
);
alter table private.import_staged_rows enable row level security;
revoke all on private.import_staged_rows from public, anon, authenticated;

-- Batches staged before this migration keep their rows.
insert into private.import_staged_rows (batch_id, ord, import_key, external_id, amount, fee, date_received,
  payment_method, raw_payer, payer_email, description)
select b.id, r.ord, r.import_key, r.external_id, r.amount, r.fee, r.date_received, r.payment_method, r.raw_payer,
  r.payer_email, r.description
from public.import_batches b, jsonb_to_recordset(b.staged_rows) as r (
  ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
  payment_method public.payment_method, raw_payer text, payer_email text, description text)
where b.status = 'staged' and b.staged_rows is not null;
update public.import_batches set staged_rows = null where staged_rows is not null;

-- A batch's staged rows go when it is committed or undone (and with it when it is removed).
create function private.drop_staged_rows() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from private.import_staged_rows where batch_id = new.id;
  return null;
end
$$;
revoke execute on function private.drop_staged_rows() from public;
create trigger import_batches_drop_staged_rows
  after update of status on public.import_batches
  for each row when (old.status = 'staged' and new.status <> 'staged')
  execute function private.drop_staged_rows();

-- The caller's own staged batch, locked for the rest of the transaction: only the member who
-- staged a batch may add to it, and only while it is staged.
create function private.own_staged_batch(batch_id uuid) returns public.import_batches
language plpgsql security definer set search_path = ''
as $$
declare
  b public.import_batches;
begin
  select * into b from public.import_batches x where x.id = batch_id for update;
  if b.id is null or b.status <> 'staged' then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(b.organization_id);
  if b.user_id is distinct from (select auth.uid()) then
    raise exception 'batch_not_found' using errcode = 'P0001';
  end if;
  return b;
end
$$;
revoke execute on function private.own_staged_batch(uuid) from public;

-- Appends one chunk of normalised rows (the same objects `stage_import` takes) to a batch the
-- caller staged, while it is still staged. Returns the batch's payment count so far.
create function public.stage_import_rows(batch_id uuid, p_rows jsonb) returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  b public.import_batches;
  added integer;
begin
  b := private.own_staged_batch(batch_id);
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'invalid_batch' using errcode = 'P0001';
  end if;
  insert into private.import_staged_rows (batch_id, ord, import_key, external_id, amount, fee, date_received,
    payment_method, raw_payer, payer_email, description)
  select b.id, r.ord, r.import_key, r.external_id, r.amount, r.fee, r.date_received, r.payment_method, r.raw_payer,
    r.payer_email, r.description
  from jsonb_to_recordset(p_rows) as r (
    ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
    payment_method public.payment_method, raw_payer text, payer_email text, description text);
  get diagnostics added = row_count;
  update public.import_batches x set payment_count = x.payment_count + added where x.id = b.id
  returning x.payment_count into added;
  return added;
end
$$;

-- Records a staged batch's file counts and first failures once the whole file is read.
create function public.finish_import_stage(batch_id uuid, p_rows_read integer, p_ignored integer, p_failed integer, p_failures jsonb)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  b public.import_batches;
begin
  b := private.own_staged_batch(batch_id);
  if p_failures is null or jsonb_typeof(p_failures) <> 'array'
     or coalesce(p_rows_read, -1) < 0 or coalesce(p_ignored, -1) < 0 or coalesce(p_failed, -1) < 0 then
    raise exception 'invalid_batch' using errcode = 'P0001';
  end if;
  update public.import_batches x set rows_read = p_rows_read, ignored_count = p_ignored, failed_count = p_failed,
    failures = p_failures
  where x.id = b.id;
end
$$;

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
  delete from public.import_batches b
  where b.organization_id = org_id and b.status = 'staged' and b.created_at < now() - interval '1 day';
  insert into public.import_batches (organization_id, user_id, source, file_name, rows_read, ignored_count,
    failed_count, failures)
  values (org_id, (select auth.uid()), p_source, left(p_file_name, 255), p_rows_read, p_ignored, p_failed, p_failures)
  returning id into batch;
  perform public.stage_import_rows(batch, p_rows);
  return batch;
end
$$;

-- As before, reading the batch's rows from their table.
create or replace function private.import_plan(batch uuid)
returns table (
  ord integer, import_key text, external_id text, amount numeric, fee numeric, date_received date,
  payment_method public.payment_method, raw_payer text, description text, state text,
  candidates integer, client_id uuid
)
language sql stable security definer set search_path = ''
as $$
  with b as (
    select b.organization_id from public.import_batches b where b.id = batch
  ),
  rows as (
    select r.ord, r.import_key, r.external_id, r.amount, r.fee, r.date_received, r.payment_method, r.raw_payer,
      r.payer_email, r.description,
      public.payer_key(r.raw_payer) as payer_key, coalesce(lower(r.payer_email), '') as email_key,
      row_number() over (partition by r.import_key order by r.ord) as nth
    from private.import_staged_rows r where r.batch_id = batch
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

revoke execute on function public.stage_import_rows(uuid, jsonb), public.finish_import_stage(uuid, integer, integer, integer, jsonb)
  from public, anon, authenticated;
grant execute on function public.stage_import_rows(uuid, jsonb), public.finish_import_stage(uuid, integer, integer, integer, jsonb)
  to authenticated;
