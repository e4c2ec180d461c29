-- Import keys compare providers' ids blind to case (issue 47, item 8): Cash App's CSV writes a
-- payment's id `rmgsrz` where its mail writes `#RMGSRZ`, and a bank's Zelle reference is read
-- upper-cased from a notice but as written from a statement. From now on the server writes
-- `id:<provider>:<ID>` with the id upper-cased for these providers (ImportKeys.idKey in
-- app/.server/payments/imports/staging.ts lists the same ones); a generic CSV's ids ('csv') stay
-- as written. The keys stored before are given the same form here, so a file imported again
-- after this migration is still recognised as already imported, and a deleted payment stays
-- deleted.
--
-- Where an organization already holds both forms of one key (the same payment recorded twice,
-- once from a notice and once from a file), the second transaction keeps its old key: nothing a
-- user sees is deleted or merged behind their back; later imports match the upper-cased one.
-- Only ids written in plain ASCII are changed (SQL's upper() and JavaScript's agree on those).

create function private.case_blind_import_key(key text) returns text
language sql immutable set search_path = ''
as $$
  select case
    when key ~ '^id:(venmo|paypal|cashapp|chase|bofa|capitalone|td|wellsfargo|navyfederal|usbank|pnc|citi|truist):[\x20-\x7e]*$'
      then 'id:' || split_part(key, ':', 2) || ':' || upper(substr(key, char_length(split_part(key, ':', 2)) + 5))
    else key
  end
$$;
revoke all on function private.case_blind_import_key(text) from public, anon, authenticated;

-- The key is not a value a user edits: the row's version (updated_at) and the organization's
-- totals do not change with it.
alter table public.transactions disable trigger transactions_touch;
alter table public.transactions disable trigger transactions_rollup_update;

with changed as (
  select t.id, t.organization_id, private.case_blind_import_key(t.import_key) as new_key,
    -- Two old keys of one organization that become the same: the first (by id) takes it.
    row_number() over (partition by t.organization_id, private.case_blind_import_key(t.import_key) order by t.id) as nth
  from public.transactions t
  where t.import_key like 'id:%' and t.import_key <> private.case_blind_import_key(t.import_key)
)
update public.transactions t
set import_key = c.new_key
from changed c
where t.id = c.id
  and c.nth = 1
  and not exists (select 1 from public.transactions o where o.organization_id = c.organization_id and o.import_key = c.new_key);

alter table public.transactions enable trigger transactions_touch;
alter table public.transactions enable trigger transactions_rollup_update;

-- Tombstones: a deleted payment stays deleted under its new key; a duplicate tombstone is one.
insert into public.import_tombstones (organization_id, import_key, deleted_at)
select d.organization_id, private.case_blind_import_key(d.import_key), min(d.deleted_at)
from public.import_tombstones d
where d.import_key like 'id:%' and d.import_key <> private.case_blind_import_key(d.import_key)
group by d.organization_id, private.case_blind_import_key(d.import_key)
on conflict (organization_id, import_key) do nothing;

delete from public.import_tombstones d
where d.import_key like 'id:%' and d.import_key <> private.case_blind_import_key(d.import_key);

-- Batches staged but not yet committed are compared with the transactions at commit.
update private.import_staged_rows r
set import_key = private.case_blind_import_key(r.import_key)
where r.import_key like 'id:%' and r.import_key <> private.case_blind_import_key(r.import_key);

drop function private.case_blind_import_key(text);
