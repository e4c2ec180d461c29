-- Mailbox connections of the 'P2P Tracking - Email' upgrade (docs/product.md, Integrations;
-- docs/decisions/015-integration-secrets.md). A connection is made, checked and removed only
-- by an owner, through these functions; what is secret (an IMAP app password, OAuth tokens)
-- arrives already sealed by the server (AES-256-GCM) and is kept in private.integration_tokens,
-- which no client role can read.

-- What the card shows besides the status: the mailbox (an address, not a secret) and when the
-- connection was last checked by logging in.
alter table public.integration_credentials
  add column account text check (char_length(account) <= 320),
  add column last_checked_at timestamptz;

-- The IMAP server settings (host, port, tls, user; not secret but nobody else's business) and
-- the sealed app password. OAuth tokens go, sealed, in access_token and refresh_token.
alter table private.integration_tokens
  add column settings jsonb check (settings is null or jsonb_typeof(settings) = 'object'),
  add column password text;

-- Sets a credential's health after a login check (or a sync): no message = connected.
create function private.set_integration_health(credential uuid, error_msg text) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  cred record;
  message text := left(nullif(btrim(error_msg), ''), 2000);
begin
  update public.integration_credentials c
  set error_message = message, last_checked_at = now()
  where c.id = credential and c.status = 'connected'
  returning c.organization_id, c.upgrade_id, c.provider, c.scope into cred;
  if not found then
    raise exception 'integration_not_found' using errcode = 'P0001';
  end if;
  update public.integration_connections ic
  set status = case when message is null then 'connected' else 'error' end::public.integration_connection_status
  from public.organization_module_upgrades omu
  where ic.organization_id = cred.organization_id and ic.user_module_upgrade_id = omu.id
    and omu.upgrade_id = cred.upgrade_id and ic.provider = cred.provider and ic.scope = cred.scope;
end
$$;

-- Connects a mailbox to an active upgrade of the organization (owners only), replacing any
-- earlier connection of that upgrade: one mailbox per upgrade. Returns the credential's id.
-- `secrets` carries {settings, password, access_token, refresh_token, expires_at}, sealed.
create function public.connect_integration(
  org_id uuid, upgrade_id uuid, provider text, scope text, account text, secrets jsonb
) returns uuid
language plpgsql security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  org_upgrade uuid;
  credential uuid;
begin
  perform private.require_owner(connect_integration.org_id);
  perform 1 from public.organizations o where o.id = connect_integration.org_id for no key update;
  select omu.id into org_upgrade from public.organization_module_upgrades omu
  where omu.organization_id = connect_integration.org_id and omu.upgrade_id = connect_integration.upgrade_id;
  if org_upgrade is null then
    raise exception 'upgrade_not_active' using errcode = 'P0001';
  end if;
  if secrets is null or jsonb_typeof(secrets) <> 'object' then
    raise exception 'invalid_secrets' using errcode = 'P0001';
  end if;
  -- One mailbox per upgrade: the earlier connection and its secrets go.
  delete from public.integration_credentials c
  where c.organization_id = connect_integration.org_id and c.upgrade_id = connect_integration.upgrade_id
    and (c.provider, c.scope) is distinct from (connect_integration.provider, connect_integration.scope);
  delete from public.integration_connections ic
  where ic.organization_id = connect_integration.org_id and ic.user_module_upgrade_id = org_upgrade
    and (ic.provider, ic.scope) is distinct from (connect_integration.provider, connect_integration.scope);
  insert into public.integration_credentials as c
    (organization_id, upgrade_id, provider, scope, status, account, error_message, last_checked_at)
  values (connect_integration.org_id, connect_integration.upgrade_id, connect_integration.provider,
    connect_integration.scope, 'connected', connect_integration.account, null, now())
  on conflict (organization_id, upgrade_id, provider, scope) do update
  set status = 'connected', account = excluded.account, error_message = null, last_checked_at = now()
  returning c.id into credential;
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

-- Records the outcome of an owner's Refresh Status (a login check made by the server).
create function public.record_integration_check(org_id uuid, credential_id uuid, error_msg text default null)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_owner(record_integration_check.org_id);
  if not exists (
    select 1 from public.integration_credentials c
    where c.id = record_integration_check.credential_id and c.organization_id = record_integration_check.org_id
  ) then
    raise exception 'integration_not_found' using errcode = 'P0001';
  end if;
  perform private.set_integration_health(record_integration_check.credential_id, error_msg);
end
$$;

-- Disconnects (owners only): the status says disconnected and the secrets are deleted.
-- Returns the provider, for the message.
create function public.disconnect_integration(org_id uuid, credential_id uuid) returns text
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
    and omu.upgrade_id = cred.upgrade_id and ic.provider = cred.provider and ic.scope = cred.scope;
  return cred.provider;
end
$$;

-- Removing an upgrade (or its module) removes its connections by cascade; the credentials and
-- their secrets go with them.
create function private.forget_upgrade_credentials() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.integration_credentials c
  where c.organization_id = old.organization_id and c.upgrade_id = old.upgrade_id;
  return old;
end
$$;
create trigger organization_module_upgrades_forget_credentials
  after delete on public.organization_module_upgrades
  for each row execute function private.forget_upgrade_credentials();

-- However a credential gets disconnected (the function, or a member's direct update, which the
-- policies allow), its secrets go.
create function private.forget_disconnected_secrets() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from private.integration_tokens t where t.credential_id = new.id;
  return new;
end
$$;
create trigger integration_credentials_forget_secrets
  after update of status on public.integration_credentials
  for each row when (new.status = 'disconnected')
  execute function private.forget_disconnected_secrets();

revoke execute on function private.set_integration_health(uuid, text), private.forget_upgrade_credentials(),
  private.forget_disconnected_secrets()
  from public, anon, authenticated;
revoke execute on function public.connect_integration(uuid, uuid, text, text, text, jsonb),
  public.record_integration_check(uuid, uuid, text), public.disconnect_integration(uuid, uuid)
  from public, anon;
grant execute on function public.connect_integration(uuid, uuid, text, text, text, jsonb),
  public.record_integration_check(uuid, uuid, text), public.disconnect_integration(uuid, uuid)
  to authenticated;
