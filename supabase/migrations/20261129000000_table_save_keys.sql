-- An editable table's save form carries a key made for the page it is on (the signed-in
-- layout's loader makes one per load). The save claims the key in its own transaction, so the
-- same form posted again (a double click with JavaScript off, a retried request whose answer
-- was lost) finds it claimed and writes nothing twice. A refused save rolls back, and its claim
-- with it, so the same form can be corrected and sent again: docs/decisions/028.

create table private.table_save_keys (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  save_key text not null check (save_key ~ '^[A-Za-z0-9_-]{20,100}$'),
  created_at timestamptz not null default now(),
  primary key (organization_id, save_key)
);
create index table_save_keys_created_idx on private.table_save_keys (created_at);
alter table private.table_save_keys enable row level security;
revoke all on private.table_save_keys from public, anon, authenticated;

-- True when this call claimed the key; false when a save with it was already made (or is being
-- made: a second call waits for the first's transaction to end). Keys older than a day go.
create function public.claim_table_save(org_id uuid, save_key text) returns boolean
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_member(org_id);
  if save_key is null or save_key !~ '^[A-Za-z0-9_-]{20,100}$' then
    raise exception 'invalid_save_key' using errcode = 'P0001';
  end if;
  delete from private.table_save_keys k where k.created_at < now() - interval '1 day';
  insert into private.table_save_keys (organization_id, save_key)
  values (org_id, claim_table_save.save_key)
  on conflict do nothing;
  return found;
end
$$;

revoke execute on function public.claim_table_save(uuid, text) from public, anon;
grant execute on function public.claim_table_save(uuid, text) to authenticated;
