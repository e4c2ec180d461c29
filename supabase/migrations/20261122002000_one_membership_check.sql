-- One definition of "the caller is a member" (docs/data-model.md, "Who may do what").
--
-- Before: five definitions (public.is_member, public.has_role, public.my_organization_ids,
-- private.require_member, private.require_owner, plus public.is_co_member for profiles) and two
-- idioms in policies (a per-row `public.is_member(id)` call, and `organization_id in (select
-- public.my_organization_ids())`). Now:
--
-- * public.my_organization_ids(with_role) is the only place that reads organization_members for
--   the caller: the organizations the caller belongs to, or (with a role) holds that role in.
--   Security definer so that the policies on organization_members itself do not recurse; it only
--   ever returns the caller's own memberships. It lives in public (not private) because policies
--   run with the caller's privileges: `authenticated` must be able to execute it, and schema
--   private stays closed to every API role (tests/db/rls-matrix.test.ts).
-- * Every policy uses one idiom, `<organization column> in (select public.my_organization_ids())`
--   (or `('owner')`), which PostgreSQL evaluates once per query, not once per row;
--   tests/db/policy-idiom.test.ts fails when a policy calls anything else.
-- * private.require_member and private.require_owner (the functions' stable-code guards) are
--   built on it.
--
-- Policies are dropped first (they depend on the old functions) and created again with the same
-- names, operations and roles; what each allows is unchanged (tests/db/rls-matrix.test.ts).

drop policy "profiles: a user reads their own profile and co-members' profiles" on public.profiles;
drop policy "organizations: members read their organizations" on public.organizations;
drop policy "organizations: owners update their organization" on public.organizations;
drop policy "organization_members: members read their organization's members" on public.organization_members;
drop policy "booking_settings: members read their organization's settings" on public.booking_settings;
drop policy "booking_settings: members update their organization's settings" on public.booking_settings;
drop policy "clients: members read their organization's clients" on public.clients;
drop policy "clients: members add clients to their organization, as themselves" on public.clients;
drop policy "clients: members update their organization's clients" on public.clients;
drop policy "clients: members delete their organization's clients" on public.clients;
drop policy "transactions: members read their organization's transactions" on public.transactions;
drop policy "transactions: members add transactions to their organization, as themselves" on public.transactions;
drop policy "transactions: members update their organization's transactions" on public.transactions;
drop policy "transactions: members delete their organization's transactions" on public.transactions;
drop policy "transaction_monthly_rollups: members read their organization's rollups" on public.transaction_monthly_rollups;
drop policy "organization_transaction_totals: members read their organization's totals" on public.organization_transaction_totals;
drop policy "organization_client_transaction_counts: members read their organization's counts" on public.organization_client_transaction_counts;
drop policy "organization_modules: members read their organization's modules" on public.organization_modules;
drop policy "organization_module_upgrades: members read their organization's upgrades" on public.organization_module_upgrades;
drop policy "module_sync_status: members read their organization's sync status" on public.module_sync_status;
drop policy "gear_ledger: members read their organization's gear movements" on public.gear_ledger;
drop policy "integration_connections: members read their organization's connections" on public.integration_connections;
drop policy "integration_connections: members disconnect their organization's connections" on public.integration_connections;
drop policy "integration_credentials: members read their organization's credentials" on public.integration_credentials;
drop policy "integration_credentials: members disconnect their organization's credentials" on public.integration_credentials;
drop policy "booking_services: members read their organization's services" on public.booking_services;
drop policy "booking_services: members add services to their organization" on public.booking_services;
drop policy "booking_services: members update their organization's services" on public.booking_services;
drop policy "booking_services: members delete their organization's services" on public.booking_services;
drop policy "booking_providers: members read their organization's providers" on public.booking_providers;
drop policy "booking_providers: members add providers to their organization" on public.booking_providers;
drop policy "booking_providers: members update their organization's providers" on public.booking_providers;
drop policy "booking_providers: members delete their organization's providers" on public.booking_providers;
drop policy "booking_appointments: members read their organization's appointments" on public.booking_appointments;
drop policy "booking_appointments: members add appointments to their organization" on public.booking_appointments;
drop policy "booking_appointments: members update their organization's appointments" on public.booking_appointments;

drop function public.is_member(uuid);
drop function public.has_role(uuid, public.org_role[]);
drop function public.is_co_member(uuid);
drop function public.my_organization_ids();

create function public.my_organization_ids(with_role public.org_role default null) returns setof uuid
language sql stable security definer set search_path = '' rows 10
as $$
  select m.organization_id
  from public.organization_members m
  where m.user_id = (select auth.uid())
    and (with_role is null or m.role = with_role)
$$;
revoke execute on function public.my_organization_ids(public.org_role) from public, anon, authenticated;
grant execute on function public.my_organization_ids(public.org_role) to authenticated;

-- The guards the security definer functions call first: refusals with stable codes.
create or replace function private.require_member(org uuid) returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.my_organization_ids() as mine (id) where mine.id = org) then
    raise exception 'not_member' using errcode = 'P0001';
  end if;
end
$$;

create or replace function private.require_owner(org uuid) returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.my_organization_ids('owner') as mine (id) where mine.id = org) then
    raise exception 'not_owner' using errcode = 'P0001';
  end if;
end
$$;
revoke execute on function private.require_member(uuid), private.require_owner(uuid)
  from public, anon, authenticated;

-- The policies. A profile is readable by its user and by anyone sharing an organization with
-- them (what public.is_co_member did).
create policy "profiles: a user reads their own profile and co-members' profiles"
  on public.profiles for select to authenticated
  using (user_id = (select auth.uid()) or user_id in (
    select m.user_id from public.organization_members m
    where m.organization_id in (select public.my_organization_ids())
  ));

create policy "organizations: members read their organizations"
  on public.organizations for select to authenticated
  using (id in (select public.my_organization_ids()));
create policy "organizations: owners update their organization"
  on public.organizations for update to authenticated
  using (id in (select public.my_organization_ids('owner')))
  with check (id in (select public.my_organization_ids('owner')));

create policy "organization_members: members read their organization's members"
  on public.organization_members for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "booking_settings: members read their organization's settings"
  on public.booking_settings for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "booking_settings: members update their organization's settings"
  on public.booking_settings for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));

create policy "clients: members read their organization's clients"
  on public.clients for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "clients: members add clients to their organization, as themselves"
  on public.clients for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()) and user_id = (select auth.uid()));
create policy "clients: members update their organization's clients"
  on public.clients for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "clients: members delete their organization's clients"
  on public.clients for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "transactions: members read their organization's transactions"
  on public.transactions for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "transactions: members add transactions to their organization, as themselves"
  on public.transactions for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()) and user_id = (select auth.uid()));
create policy "transactions: members update their organization's transactions"
  on public.transactions for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "transactions: members delete their organization's transactions"
  on public.transactions for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "transaction_monthly_rollups: members read their organization's rollups"
  on public.transaction_monthly_rollups for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "organization_transaction_totals: members read their organization's totals"
  on public.organization_transaction_totals for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "organization_client_transaction_counts: members read their organization's counts"
  on public.organization_client_transaction_counts for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "organization_modules: members read their organization's modules"
  on public.organization_modules for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "organization_module_upgrades: members read their organization's upgrades"
  on public.organization_module_upgrades for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "module_sync_status: members read their organization's sync status"
  on public.module_sync_status for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "gear_ledger: members read their organization's gear movements"
  on public.gear_ledger for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "integration_connections: members read their organization's connections"
  on public.integration_connections for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "integration_connections: members disconnect their organization's connections"
  on public.integration_connections for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()) and status = 'disconnected');

create policy "integration_credentials: members read their organization's credentials"
  on public.integration_credentials for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "integration_credentials: members disconnect their organization's credentials"
  on public.integration_credentials for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()) and status = 'disconnected');

create policy "booking_services: members read their organization's services"
  on public.booking_services for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "booking_services: members add services to their organization"
  on public.booking_services for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()));
create policy "booking_services: members update their organization's services"
  on public.booking_services for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "booking_services: members delete their organization's services"
  on public.booking_services for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "booking_providers: members read their organization's providers"
  on public.booking_providers for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "booking_providers: members add providers to their organization"
  on public.booking_providers for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()));
create policy "booking_providers: members update their organization's providers"
  on public.booking_providers for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "booking_providers: members delete their organization's providers"
  on public.booking_providers for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "booking_appointments: members read their organization's appointments"
  on public.booking_appointments for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "booking_appointments: members add appointments to their organization"
  on public.booking_appointments for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()));
create policy "booking_appointments: members update their organization's appointments"
  on public.booking_appointments for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));