-- Email sync (docs/product.md, Email sync; docs/decisions/017-email-sync-runs.md): the runs
-- that read the email upgrade's mailbox and import the payment notices found in it.
--
-- * public.email_sync_runs: one row per run (the Sync button or the schedule), with its counts
--   and the notices of known senders that could not be read. Members read them; only the server
--   (the owner connection) writes them.
-- * private.email_sync_cursors: where the last successful run stopped in the mailbox (IMAP:
--   UIDVALIDITY and last UID; Gmail: the newest internal date read), written only after the
--   run's import batch was committed. No client role can read or write it.
-- * The run itself is claimed on public.module_sync_status (pending = syncing) by one UPDATE
--   in private.claim_email_sync: two clicks never run two syncs; a claim left pending longer
--   than its timeout (a crashed server) can be taken over.

create table public.email_sync_runs (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  credential_id uuid references public.integration_credentials (id) on delete set null,
  provider text check (char_length(provider) <= 40),
  trigger text not null check (trigger in ('button', 'schedule')),
  started_by uuid references auth.users (id) on delete set null,
  status text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  read_count integer not null default 0 check (read_count >= 0),
  created_count integer not null default 0 check (created_count >= 0),
  duplicate_count integer not null default 0 check (duplicate_count >= 0),
  ignored_count integer not null default 0 check (ignored_count >= 0),
  unreadable_count integer not null default 0 check (unreadable_count >= 0),
  error_count integer not null default 0 check (error_count >= 0),
  -- The folder was recreated (UIDVALIDITY changed): the look-back window was read again.
  reread boolean not null default false,
  import_batch_id uuid references public.import_batches (id) on delete set null,
  -- A failure code (auth, unreachable, timeout, tls, protocol, no_connection, internal).
  error_code text check (char_length(error_code) <= 40),
  -- Notices of a known sender that could not be read: [{subject, sender, date}], at most 100.
  unreadable jsonb not null default '[]' check (jsonb_typeof(unreadable) = 'array'),
  unique (organization_id, id)
);
create index email_sync_runs_org_started_idx on public.email_sync_runs (organization_id, started_at desc);
create index email_sync_runs_credential_idx on public.email_sync_runs (credential_id);
create index email_sync_runs_started_by_idx on public.email_sync_runs (started_by);
create index email_sync_runs_batch_idx on public.email_sync_runs (import_batch_id);

alter table public.email_sync_runs enable row level security;
revoke all on public.email_sync_runs from public, anon, authenticated;
grant select on public.email_sync_runs to authenticated;
create policy "email_sync_runs: members read their organization's sync runs"
  on public.email_sync_runs for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create table private.email_sync_cursors (
  credential_id uuid primary key references public.integration_credentials (id) on delete cascade,
  -- The mailbox the cursor belongs to: a different account connected later starts afresh.
  account text,
  provider text not null,
  cursor jsonb not null check (jsonb_typeof(cursor) = 'object'),
  updated_at timestamptz not null default now()
);
revoke all on private.email_sync_cursors from public, anon, authenticated;

-- Claims the organization's sync: the status row of the module goes to pending unless a sync
-- is pending already and younger than stale_after. True when this caller holds the claim.
create function private.claim_email_sync(org_id uuid, mod_id uuid, stale_after interval)
returns boolean
language plpgsql security definer set search_path = ''
as $$
declare
  claimed uuid;
begin
  insert into public.module_sync_status (organization_id, module_id)
  values (org_id, mod_id)
  on conflict (organization_id, module_id) do nothing;
  -- One statement: a concurrent claim waits on the row lock, then sees 'pending' and gets nothing.
  update public.module_sync_status s
  set sync_status = 'pending', error_message = null
  where s.organization_id = org_id and s.module_id = mod_id
    and (s.sync_status <> 'pending' or s.updated_at < now() - stale_after)
  returning s.id into claimed;
  return claimed is not null;
end
$$;

-- Ends a claimed sync: idle (last_synced_at now) or error with its message.
create function private.finish_email_sync(org_id uuid, mod_id uuid, error_msg text)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  update public.module_sync_status s
  set sync_status = case when error_msg is null then 'idle' else 'error' end::public.sync_status,
      error_message = left(error_msg, 2000),
      last_synced_at = case when error_msg is null then now() else s.last_synced_at end
  where s.organization_id = org_id and s.module_id = mod_id;
end
$$;

revoke execute on function private.claim_email_sync(uuid, uuid, interval), private.finish_email_sync(uuid, uuid, text)
  from public, anon, authenticated;
