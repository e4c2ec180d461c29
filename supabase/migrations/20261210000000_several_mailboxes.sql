-- Email Pro: several mailboxes per organization, each synced on its own (docs/product.md,
-- Integrations and Email sync; docs/decisions/051-several-mailboxes.md).
--
-- * A mailbox is one row of public.integration_credentials of the email upgrade, told apart by
--   its provider (and scope) and account (one row per IMAP user or Gmail address): connecting the same
--   account again updates its row (its cursor and runs stay), another account adds a row.
-- * public.connect_integration keeps ONE mailbox without Email Pro (connecting replaces every
--   other one, as before) and allows up to 5 connected mailboxes with Email Pro, counted under
--   the organization's row lock so that concurrent connects never exceed it ('mailbox_limit').
-- * Without Email Pro (never bought, removed, or its module deactivated) only the oldest
--   connected mailbox syncs; the others are paused (read, not stored: private.mailbox_states),
--   and resume when Email Pro is active again.
-- * A sync is claimed per mailbox (sync_claimed_at), so one mailbox's slow run holds up no other;
--   the module's sync status says Syncing while any mailbox runs, then what the latest runs of
--   the mailboxes that sync say.

-- The old key (organization, upgrade, provider, scope) allowed one IMAP and one Gmail mailbox.
do $$
declare
  name text;
begin
  select c.conname into name from pg_constraint c
  where c.conrelid = 'public.integration_credentials'::regclass and c.contype = 'u';
  if name is not null then
    execute format('alter table public.integration_credentials drop constraint %I', name);
  end if;
end
$$;
create unique index integration_credentials_mailbox_key
  on public.integration_credentials (organization_id, upgrade_id, provider, scope, lower(coalesce(account, '')));

-- Who connected the mailbox (the schedule imports as them while they are an owner), and the
-- claim of a sync of this mailbox under way (null: none).
alter table public.integration_credentials
  add column connected_by uuid references auth.users (id) on delete set null,
  add column sync_claimed_at timestamptz;
create index integration_credentials_connected_by_idx on public.integration_credentials (connected_by);
update public.integration_credentials c set connected_by = ic.connected_by
from public.organization_module_upgrades omu, public.integration_connections ic
where omu.organization_id = c.organization_id and omu.upgrade_id = c.upgrade_id
  and ic.user_module_upgrade_id = omu.id and ic.provider = c.provider and ic.scope = c.scope;

-- How many connected mailboxes the organization may have: 5 with Email Pro, else 1.
create function private.mailbox_limit(org uuid) returns integer
language sql stable security definer set search_path = ''
as $$
  select case when private.owns_upgrade(org, 'c0000000-0000-4000-8000-000000000002') then 5 else 1 end
$$;

-- The organization's connected mailboxes, oldest first, and whether each is paused: beyond the
-- limit without Email Pro, every mailbox but the oldest.
create function private.mailbox_states(org uuid)
returns table (credential_id uuid, paused boolean)
language sql stable security definer set search_path = ''
as $$
  select m.id, m.n > private.mailbox_limit(org)
  from (
    select c.id, row_number() over (order by c.created_at, c.id) as n
    from public.integration_credentials c
    where c.organization_id = org and c.upgrade_id = 'c0000000-0000-4000-8000-000000000001'
      and c.status = 'connected'
  ) m
  order by m.n
$$;

-- The same for a member's page (the module screen lists the mailboxes).
create function public.email_mailbox_states(org_id uuid)
returns table (credential_id uuid, paused boolean)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_member(email_mailbox_states.org_id);
  return query select s.credential_id, s.paused from private.mailbox_states(email_mailbox_states.org_id) s;
end
$$;

-- Connects a mailbox to an active upgrade of the organization (owners only). Without Email Pro
-- the earlier connections of the upgrade go (one mailbox); with it, up to 5 connected mailboxes,
-- the same account connected again updating its own row. Returns the credential's id.
-- `secrets` carries {settings, password, access_token, refresh_token, expires_at}, sealed.
create or replace function public.connect_integration(
  org_id uuid, upgrade_id uuid, provider text, scope text, account text, secrets jsonb
) returns uuid
language plpgsql security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  org_upgrade uuid;
  credential uuid;
  existing uuid;
  others integer;
begin
  perform private.require_owner(connect_integration.org_id);
  -- Connects of one organization run one after the other: the count below cannot be outrun.
  perform 1 from public.organizations o where o.id = connect_integration.org_id for no key update;
  select omu.id into org_upgrade from public.organization_module_upgrades omu
  where omu.organization_id = connect_integration.org_id and omu.upgrade_id = connect_integration.upgrade_id;
  if org_upgrade is null then
    raise exception 'upgrade_not_active' using errcode = 'P0001';
  end if;
  if secrets is null or jsonb_typeof(secrets) <> 'object' then
    raise exception 'invalid_secrets' using errcode = 'P0001';
  end if;
  select c.id into existing from public.integration_credentials c
  where c.organization_id = connect_integration.org_id and c.upgrade_id = connect_integration.upgrade_id
    and c.provider = connect_integration.provider and c.scope = connect_integration.scope
    and lower(coalesce(c.account, '')) = lower(coalesce(connect_integration.account, ''));
  if private.mailbox_limit(connect_integration.org_id) = 1 then
    -- One mailbox: every other connection of the upgrade and its secrets go.
    delete from public.integration_credentials c
    where c.organization_id = connect_integration.org_id and c.upgrade_id = connect_integration.upgrade_id
      and c.id is distinct from existing;
    delete from public.integration_connections ic
    where ic.organization_id = connect_integration.org_id and ic.user_module_upgrade_id = org_upgrade
      and (ic.provider, ic.scope) is distinct from (connect_integration.provider, connect_integration.scope);
  else
    select count(*) into others from public.integration_credentials c
    where c.organization_id = connect_integration.org_id and c.upgrade_id = connect_integration.upgrade_id
      and c.status = 'connected' and c.id is distinct from existing;
    if others >= private.mailbox_limit(connect_integration.org_id) then
      raise exception 'mailbox_limit' using errcode = 'P0001';
    end if;
  end if;
  insert into public.integration_credentials as c
    (organization_id, upgrade_id, provider, scope, status, account, error_message, last_checked_at, connected_by)
  values (connect_integration.org_id, connect_integration.upgrade_id, connect_integration.provider,
    connect_integration.scope, 'connected', connect_integration.account, null, now(), (select auth.uid()))
  on conflict (organization_id, upgrade_id, provider, scope, lower(coalesce(account, ''))) do update
  set status = 'connected', account = excluded.account, error_message = null,
    last_checked_at = now(), connected_by = excluded.connected_by
  returning c.id into credential;
  -- The upgrade's connection per provider (the data model's summary; each mailbox is a credential).
  insert into public.integration_connections as ic
    (organization_id, user_module_upgrade_id, provider, scope, status, connected_by)
  values (connect_integration.org_id, org_upgrade, connect_integration.provider, connect_integration.scope,
    'connected', (select auth.uid()))
  on conflict (user_module_upgrade_id, provider, scope) do update
  set status = 'connected', connected_by = excluded.connected_by;
  insert into private.integration_tokens as t (credential_id, access_token, refresh_token, expires_at, settings, password)
  values (credential, secrets ->> 'access_token', secrets ->> 'refresh_token',
    (secrets ->> 'expires_at')::timestamptz, nullif(secrets -> 'settings', 'null'::jsonb), secrets ->> 'password')
  on conflict (credential_id) do update
  set access_token = excluded.access_token, refresh_token = excluded.refresh_token,
    expires_at = excluded.expires_at, settings = excluded.settings, password = excluded.password,
    updated_at = now();
  return credential;
end
$$;

-- Disconnects one mailbox (owners only): its status says disconnected and its secrets are
-- deleted; the provider's connection says disconnected once no mailbox of it is connected.
create or replace function public.disconnect_integration(org_id uuid, credential_id uuid) returns text
language plpgsql security definer set search_path = ''
as $$
declare
  cred record;
begin
  perform private.require_owner(disconnect_integration.org_id);
  update public.integration_credentials c
  set status = 'disconnected', error_message = null
  where c.id = disconnect_integration.credential_id and c.organization_id = disconnect_integration.org_id
    and c.status = 'connected'
  returning c.upgrade_id, c.provider, c.scope into cred;
  if not found then
    raise exception 'integration_not_found' using errcode = 'P0001';
  end if;
  delete from private.integration_tokens t where t.credential_id = disconnect_integration.credential_id;
  update public.integration_connections ic
  set status = 'disconnected'
  from public.organization_module_upgrades omu
  where ic.organization_id = disconnect_integration.org_id and ic.user_module_upgrade_id = omu.id
    and omu.upgrade_id = cred.upgrade_id and ic.provider = cred.provider and ic.scope = cred.scope
    and not exists (
      select 1 from public.integration_credentials c
      where c.organization_id = disconnect_integration.org_id and c.upgrade_id = cred.upgrade_id
        and c.provider = cred.provider and c.status = 'connected'
    );
  return cred.provider;
end
$$;

-- Claims the sync of one mailbox: true when this caller holds it (none under way, or one left
-- longer than stale_after by a crashed server). The module's status says Syncing meanwhile.
create function private.claim_mailbox_sync(credential uuid, mod_id uuid, stale_after interval)
returns boolean
language plpgsql security definer set search_path = ''
as $$
declare
  org uuid;
begin
  -- One statement: a concurrent claim waits on the row lock, then sees the claim and gets nothing.
  update public.integration_credentials c
  set sync_claimed_at = now()
  where c.id = credential and c.status = 'connected'
    and (c.sync_claimed_at is null or c.sync_claimed_at < now() - stale_after)
  returning c.organization_id into org;
  if org is null then
    return false;
  end if;
  insert into public.module_sync_status as s (organization_id, module_id, sync_status)
  values (org, mod_id, 'pending')
  on conflict (organization_id, module_id) do update set sync_status = 'pending', error_message = null;
  return true;
end
$$;

-- Ends a mailbox's claimed sync (succeeded: its run did). The module's status stays Syncing while
-- another mailbox's sync is under way; otherwise it is Error with the newest failure among the
-- latest runs of the mailboxes that sync (paused ones aside), or Idle.
create function private.finish_mailbox_sync(
  org uuid, credential uuid, mod_id uuid, stale_after interval, succeeded boolean
) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  failure text;
begin
  update public.integration_credentials c set sync_claimed_at = null where c.id = credential;
  if not exists (
    select 1 from public.integration_credentials c
    where c.organization_id = org and c.sync_claimed_at >= now() - stale_after
  ) then
    select r.error_code into failure
    from (
      select distinct on (r.credential_id) r.status, r.error_code, r.started_at
      from public.email_sync_runs r
      join private.mailbox_states(org) s on s.credential_id = r.credential_id and not s.paused
      where r.organization_id = org and r.status <> 'running'
      order by r.credential_id, r.started_at desc
    ) r
    where r.status = 'failed'
    order by r.started_at desc
    limit 1;
    update public.module_sync_status s
    set sync_status = case when failure is null then 'idle' else 'error' end::public.sync_status,
        error_message = left(failure, 2000)
    where s.organization_id = org and s.module_id = mod_id;
  end if;
  if succeeded then
    update public.module_sync_status s set last_synced_at = now()
    where s.organization_id = org and s.module_id = mod_id;
  end if;
end
$$;

revoke execute on function private.mailbox_limit(uuid), private.mailbox_states(uuid),
  private.claim_mailbox_sync(uuid, uuid, interval), private.finish_mailbox_sync(uuid, uuid, uuid, interval, boolean)
  from public, anon, authenticated;
revoke execute on function public.email_mailbox_states(uuid) from public, anon;
grant execute on function public.email_mailbox_states(uuid) to authenticated;
