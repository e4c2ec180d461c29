-- Bank layouts of issue 47: a file import may now come from Wells Fargo, Capital One, TD Bank,
-- Navy Federal, Truist or U.S. Bank as well (app/.server/payments/imports/parsers/banks.ts). The
-- source names are checked where a batch is created and where a transaction keeps the source it
-- was imported from; both checks get the new names. stage_import is its definition of migration
-- 20261203030000 with the longer list: a later migration that redefines it must keep the list.

alter table public.import_batches drop constraint if exists import_batches_source_check;
alter table public.import_batches add constraint import_batches_source_check check (source in (
  'venmo', 'paypal', 'cashapp', 'chase', 'bofa', 'wellsfargo', 'capitalone', 'td', 'navyfederal', 'truist', 'usbank',
  'generic', 'email'));

alter table public.transactions drop constraint if exists transactions_import_source_check;
alter table public.transactions add constraint transactions_import_source_check check (import_source in (
  'venmo', 'paypal', 'cashapp', 'chase', 'bofa', 'wellsfargo', 'capitalone', 'td', 'navyfederal', 'truist', 'usbank',
  'generic', 'email'));

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
  if p_source is null or p_source not in ('venmo', 'paypal', 'cashapp', 'chase', 'bofa', 'wellsfargo', 'capitalone', 'td', 'navyfederal',
    'truist', 'usbank', 'generic', 'email') then
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

