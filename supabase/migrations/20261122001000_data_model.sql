-- Data model: every entity of SPEC §3 (transactions, clients, the module catalogue and an
-- organization's modules and upgrades, sync status, integrations, booking), the gear ledger,
-- the transaction rollups that the dashboard and reports read, and RLS with column grants on
-- every table. The functions that change gears, modules, sync status, bookings and delete an
-- organization are in the next migration.
--
-- Conventions: a policy per operation and role; `organization_id in (select
-- public.my_organization_ids())` evaluates the caller's memberships once per query (not once per
-- row, which matters on 1,000,000 transactions); column grants decide which columns a role may
-- write; a table that is not granted to anon is invisible to it.

create extension if not exists btree_gist with schema extensions;
create extension if not exists pg_trgm with schema extensions;

-- Enumerations of SPEC §3.
create type public.transaction_category as enum ('matched', 'pending', 'unmatched', 'review');
create type public.payment_method as enum ('Zelle', 'Venmo', 'CashApp', 'PayPal', 'Wire Transfer', 'Other');
create type public.client_status as enum ('active', 'inactive', 'pending');
create type public.organization_module_status as enum ('activated');
create type public.upgrade_tier as enum ('basic', 'pro', 'enterprise');
create type public.sync_status as enum ('idle', 'pending', 'error');
create type public.integration_connection_status as enum ('connected', 'error', 'disconnected');
create type public.integration_credential_status as enum ('connected', 'disconnected');
create type public.appointment_status as enum ('pending', 'confirmed', 'cancelled', 'completed', 'no_show');
create type public.gear_reason as enum ('initial_grant', 'grant', 'module_activation', 'upgrade_purchase', 'adjustment');

-- The organizations the caller belongs to. Used by the policies below as
-- `organization_id in (select public.my_organization_ids())`.
create function public.my_organization_ids() returns setof uuid
language sql stable security definer set search_path = '' rows 10
as $$
  select m.organization_id from public.organization_members m where m.user_id = (select auth.uid())
$$;
revoke execute on function public.my_organization_ids() from public, anon, authenticated;
grant execute on function public.my_organization_ids() to authenticated;

-- Business hours: every weekday monday..sunday present, nothing else, each
-- {start "HH:MM", end "HH:MM" (or "24:00"), enabled boolean} with start before end.
-- Written out on each table because a check constraint cannot call a subquery.
alter table public.booking_settings add constraint booking_settings_business_hours_shape check (
  business_hours ?& array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
  and business_hours - array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] = '{}'::jsonb
  and not jsonb_path_exists(business_hours, '$.* ? (@.type() != "object" || !exists(@.start) || !exists(@.end) || !exists(@.enabled))')
  and not jsonb_path_exists(business_hours, '$.* ? (@.start.type() != "string" || @.end.type() != "string" || @.enabled.type() != "boolean")')
  and not jsonb_path_exists(business_hours, '$.* ? (!(@.start like_regex "^([01][0-9]|2[0-3]):[0-5][0-9]$") || !(@.end like_regex "^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$") || @.start >= @.end)')
);

-- ---------------------------------------------------------------------------------------------
-- Clients and transactions
-- ---------------------------------------------------------------------------------------------

create table public.clients (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  user_id uuid default auth.uid() references auth.users (id) on delete set null,
  name text not null default '' check (char_length(name) <= 200),
  email text check (char_length(email) <= 254 and email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  phone text check (char_length(phone) <= 40),
  company text check (char_length(company) <= 200),
  status public.client_status not null default 'active',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, id)
);
create index clients_org_name_idx on public.clients (organization_id, name, id);
create index clients_org_created_idx on public.clients (organization_id, created_at desc);
create index clients_org_status_idx on public.clients (organization_id, status);
create index clients_name_trgm_idx on public.clients using gin (name extensions.gin_trgm_ops);
create index clients_user_idx on public.clients (user_id);

create table public.transactions (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  user_id uuid default auth.uid() references auth.users (id) on delete set null,
  -- A client of the same organization; deleting the client keeps the payment.
  client_id uuid,
  external_id text check (char_length(external_id) <= 200),
  amount numeric(12, 2) not null default 0 check (amount >= 0),
  date_received date not null default current_date,
  category public.transaction_category not null default 'unmatched',
  payment_method public.payment_method not null default 'Zelle',
  description text check (char_length(description) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (organization_id, client_id) references public.clients (organization_id, id)
    on delete set null (client_id)
);
-- The list (default sort date_received desc, keyset by id), the other sorts and filters, search.
create index transactions_org_date_idx on public.transactions (organization_id, date_received desc, id desc);
create index transactions_org_created_idx on public.transactions (organization_id, created_at desc);
create index transactions_org_amount_idx on public.transactions (organization_id, amount, id);
create index transactions_org_client_idx on public.transactions (organization_id, client_id, date_received desc);
create index transactions_org_category_idx on public.transactions (organization_id, category, date_received desc);
create index transactions_org_method_idx on public.transactions (organization_id, payment_method, date_received desc);
create index transactions_org_external_idx on public.transactions (organization_id, external_id);
create index transactions_description_trgm_idx on public.transactions using gin (description extensions.gin_trgm_ops);
create index transactions_external_trgm_idx on public.transactions using gin (external_id extensions.gin_trgm_ops);
create index transactions_user_idx on public.transactions (user_id);

create trigger clients_touch before update on public.clients
  for each row execute function public.touch_updated_at();
create trigger transactions_touch before update on public.transactions
  for each row execute function public.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Transaction rollups, kept by statement triggers on transactions, so the dashboard and reports
-- read a few rows instead of scanning every transaction. Only the triggers write them.
-- ---------------------------------------------------------------------------------------------

create table public.transaction_monthly_rollups (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  month date not null check (extract(day from month) = 1),
  category public.transaction_category not null,
  payment_method public.payment_method not null,
  transaction_count bigint not null default 0 check (transaction_count >= 0),
  amount_sum numeric(18, 2) not null default 0,
  primary key (organization_id, month, category, payment_method)
);

create table public.organization_transaction_totals (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  transaction_count bigint not null default 0 check (transaction_count >= 0),
  amount_sum numeric(18, 2) not null default 0,
  matched_count bigint not null default 0 check (matched_count >= 0 and matched_count <= transaction_count),
  unique_client_count bigint not null default 0 check (unique_client_count >= 0),
  updated_at timestamptz not null default now()
);

-- How many transactions each client has; a row exists only while the count is above 0, so
-- organization_transaction_totals.unique_client_count is the number of rows.
create table public.organization_client_transaction_counts (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  client_id uuid not null,
  transaction_count bigint not null check (transaction_count >= 0),
  primary key (organization_id, client_id)
);

create schema if not exists private;

-- Applies grouped deltas (from the statement trigger below). Organizations that no longer exist
-- (a cascade from the organization's deletion) are skipped. The totals rows are locked first, in
-- order: that is the one lock per organization every writer takes, so writers of one
-- organization queue there and never deadlock on the rollup rows. Rows are created at zero and
-- then updated (an upsert would check its candidate row, a negative delta, against the checks).
create function private.apply_transaction_rollups(monthly jsonb, per_client jsonb) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  orgs uuid[];
begin
  select array_agg(o.id order by o.id) into orgs
  from public.organizations o
  where o.id in (
    select x.organization_id from jsonb_to_recordset(coalesce(monthly, '[]')) as x(organization_id uuid)
    union
    select x.organization_id from jsonb_to_recordset(coalesce(per_client, '[]')) as x(organization_id uuid)
  );
  if orgs is null then
    return;
  end if;

  insert into public.organization_transaction_totals (organization_id)
  select unnest(orgs)
  on conflict (organization_id) do nothing;
  perform 1 from public.organization_transaction_totals t
  where t.organization_id = any (orgs)
  order by t.organization_id
  for update;

  if monthly is not null then
    with d as (
      select x.organization_id, sum(x.n) as n, sum(x.s) as s,
        coalesce(sum(x.n) filter (where x.category = 'matched'), 0) as matched
      from jsonb_to_recordset(monthly) as x(organization_id uuid, category public.transaction_category, n bigint, s numeric)
      group by x.organization_id
    )
    update public.organization_transaction_totals t
    set transaction_count = t.transaction_count + d.n,
        amount_sum = t.amount_sum + d.s,
        matched_count = t.matched_count + d.matched,
        updated_at = now()
    from d
    where t.organization_id = d.organization_id
      and t.organization_id = any (orgs);

    insert into public.transaction_monthly_rollups (organization_id, month, category, payment_method)
    select x.organization_id, x.month, x.category, x.payment_method
    from jsonb_to_recordset(monthly) as x(organization_id uuid, month date,
      category public.transaction_category, payment_method public.payment_method)
    where x.organization_id = any (orgs)
    order by x.organization_id, x.month, x.category, x.payment_method
    on conflict (organization_id, month, category, payment_method) do nothing;

    update public.transaction_monthly_rollups r
    set transaction_count = r.transaction_count + x.n,
        amount_sum = r.amount_sum + x.s
    from jsonb_to_recordset(monthly) as x(organization_id uuid, month date,
      category public.transaction_category, payment_method public.payment_method, n bigint, s numeric)
    where r.organization_id = x.organization_id and r.month = x.month and r.category = x.category
      and r.payment_method = x.payment_method and x.organization_id = any (orgs);

    delete from public.transaction_monthly_rollups r
    using jsonb_to_recordset(monthly) as x(organization_id uuid, month date,
      category public.transaction_category, payment_method public.payment_method)
    where r.organization_id = x.organization_id and r.month = x.month and r.category = x.category
      and r.payment_method = x.payment_method and r.transaction_count = 0;
  end if;

  if per_client is not null then
    insert into public.organization_client_transaction_counts (organization_id, client_id, transaction_count)
    select x.organization_id, x.client_id, 0
    from jsonb_to_recordset(per_client) as x(organization_id uuid, client_id uuid)
    where x.organization_id = any (orgs)
    order by x.organization_id, x.client_id
    on conflict (organization_id, client_id) do nothing;

    with d as (
      select x.* from jsonb_to_recordset(per_client) as x(organization_id uuid, client_id uuid, n bigint)
      where x.organization_id = any (orgs)
    ), up as (
      update public.organization_client_transaction_counts c
      set transaction_count = c.transaction_count + d.n
      from d
      where c.organization_id = d.organization_id and c.client_id = d.client_id
      returning c.organization_id, c.transaction_count, d.n
    ), changes as (
      -- A row whose count now equals a positive delta was absent before (zero rows are deleted).
      select up.organization_id,
        count(*) filter (where up.transaction_count = up.n and up.n > 0)
          - count(*) filter (where up.transaction_count = 0) as delta
      from up
      group by up.organization_id
    )
    update public.organization_transaction_totals t
    set unique_client_count = t.unique_client_count + changes.delta
    from changes
    where t.organization_id = changes.organization_id and changes.delta <> 0;

    delete from public.organization_client_transaction_counts c
    using jsonb_to_recordset(per_client) as x(organization_id uuid, client_id uuid)
    where c.organization_id = x.organization_id and c.client_id = x.client_id and c.transaction_count = 0;
  end if;
end
$$;

-- One statement trigger per event (transition tables allow only one event per trigger). Rows
-- are grouped first, so a bulk insert of 1,000,000 rows writes a few hundred rollup rows.
create function private.transactions_rollup() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  monthly jsonb;
  per_client jsonb;
begin
  if tg_op = 'INSERT' then
    select jsonb_agg(g) into monthly from (
      select t.organization_id, date_trunc('month', t.date_received::timestamp)::date as month,
        t.category, t.payment_method, count(*) as n, sum(t.amount) as s
      from new_rows t group by 1, 2, 3, 4
    ) g;
    select jsonb_agg(g) into per_client from (
      select t.organization_id, t.client_id, count(*) as n
      from new_rows t where t.client_id is not null group by 1, 2
    ) g;
  elsif tg_op = 'DELETE' then
    select jsonb_agg(g) into monthly from (
      select t.organization_id, date_trunc('month', t.date_received::timestamp)::date as month,
        t.category, t.payment_method, -count(*) as n, -sum(t.amount) as s
      from old_rows t group by 1, 2, 3, 4
    ) g;
    select jsonb_agg(g) into per_client from (
      select t.organization_id, t.client_id, -count(*) as n
      from old_rows t where t.client_id is not null group by 1, 2
    ) g;
  else
    -- Only changes that move a rollup count; editing a description touches nothing.
    select jsonb_agg(g) into monthly from (
      select u.organization_id, date_trunc('month', u.date_received::timestamp)::date as month,
        u.category, u.payment_method, sum(u.sign) as n, sum(u.sign * u.amount) as s
      from (
        select t.organization_id, t.date_received, t.category, t.payment_method, t.amount, 1 as sign from new_rows t
        union all
        select t.organization_id, t.date_received, t.category, t.payment_method, t.amount, -1 from old_rows t
      ) u
      group by 1, 2, 3, 4
      having sum(u.sign) <> 0 or sum(u.sign * u.amount) <> 0
    ) g;
    select jsonb_agg(g) into per_client from (
      select u.organization_id, u.client_id, sum(u.sign) as n
      from (
        select t.organization_id, t.client_id, 1 as sign from new_rows t where t.client_id is not null
        union all
        select t.organization_id, t.client_id, -1 from old_rows t where t.client_id is not null
      ) u
      group by 1, 2
      having sum(u.sign) <> 0
    ) g;
  end if;
  if monthly is not null or per_client is not null then
    perform private.apply_transaction_rollups(monthly, per_client);
  end if;
  return null;
end
$$;

create trigger transactions_rollup_insert after insert on public.transactions
  referencing new table as new_rows for each statement execute function private.transactions_rollup();
create trigger transactions_rollup_update after update on public.transactions
  referencing old table as old_rows new table as new_rows for each statement execute function private.transactions_rollup();
create trigger transactions_rollup_delete after delete on public.transactions
  referencing old table as old_rows for each statement execute function private.transactions_rollup();

-- ---------------------------------------------------------------------------------------------
-- Module catalogue (global, written only by supabase/seed.sql) and an organization's modules
-- ---------------------------------------------------------------------------------------------

create table public.modules (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(btrim(name)) between 1 and 120),
  short_description text not null default '' check (char_length(short_description) <= 300),
  description text not null default '' check (char_length(description) <= 5000),
  icon text not null default 'Package' check (icon ~ '^[A-Z][A-Za-z0-9]{0,47}$'),
  feature_type text not null check (feature_type in (
    'transactions', 'clients', 'booking', 'reports', 'invoicing', 'messaging', 'inventory',
    'automation', 'marketing', 'finance', 'integrations'
  )),
  industry_tags text[] not null default '{}'
    check (cardinality(industry_tags) <= 20 and array_position(industry_tags, null) is null),
  base_gear_cost integer not null default 0 check (base_gear_cost >= 0),
  version text not null default '1.0.0' check (version ~ '^[0-9]+\.[0-9]+\.[0-9]+$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.module_upgrades (
  id uuid primary key default gen_random_uuid(),
  module_id uuid not null references public.modules (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 120),
  description text not null default '' check (char_length(description) <= 5000),
  features text[] not null default '{}'
    check (cardinality(features) <= 50 and array_position(features, null) is null),
  gear_cost integer not null default 0 check (gear_cost >= 0),
  tier public.upgrade_tier not null,
  -- Ids of upgrades that must be active before this one can be bought (checked at commit).
  dependencies uuid[] not null default '{}'
    check (array_position(dependencies, null) is null and not (id = any (dependencies))),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (module_id, name)
);
create index module_upgrades_module_tier_idx on public.module_upgrades (module_id, tier, name);
create index module_upgrades_tier_idx on public.module_upgrades (tier, name);

create function private.check_upgrade_dependencies() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if exists (
    select 1 from unnest(new.dependencies) d
    where not exists (select 1 from public.module_upgrades u where u.id = d)
  ) then
    raise exception 'unknown_dependency' using errcode = 'P0001';
  end if;
  return null;
end
$$;
create constraint trigger module_upgrades_dependencies_exist
  after insert or update of dependencies on public.module_upgrades
  deferrable initially deferred for each row execute function private.check_upgrade_dependencies();

create table public.organization_modules (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  module_id uuid not null references public.modules (id),
  status public.organization_module_status not null default 'activated',
  activated_by uuid references auth.users (id) on delete set null,
  activated_at timestamptz not null default now(),
  unique (organization_id, module_id),
  unique (organization_id, id)
);
create index organization_modules_org_activated_idx on public.organization_modules (organization_id, activated_at);
create index organization_modules_module_idx on public.organization_modules (module_id);

create table public.organization_module_upgrades (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  organization_module_id uuid not null,
  upgrade_id uuid not null references public.module_upgrades (id),
  purchased_by uuid references auth.users (id) on delete set null,
  purchased_at timestamptz not null default now(),
  unique (organization_id, upgrade_id),
  unique (organization_id, id),
  -- Deactivating the module removes its upgrades.
  foreign key (organization_id, organization_module_id)
    references public.organization_modules (organization_id, id) on delete cascade
);
create index organization_module_upgrades_module_idx on public.organization_module_upgrades (organization_id, organization_module_id);
create index organization_module_upgrades_upgrade_idx on public.organization_module_upgrades (upgrade_id);

create table public.module_sync_status (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  module_id uuid not null references public.modules (id),
  sync_status public.sync_status not null default 'idle',
  error_message text check (char_length(error_message) <= 2000),
  created_by uuid references auth.users (id) on delete set null,
  last_synced_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, module_id)
);
create index module_sync_status_module_idx on public.module_sync_status (module_id);

create table public.integration_connections (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  user_module_upgrade_id uuid not null,
  provider text not null check (provider ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
  scope text not null check (char_length(scope) between 1 and 500),
  status public.integration_connection_status not null default 'connected',
  connected_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_module_upgrade_id, provider, scope),
  foreign key (organization_id, user_module_upgrade_id)
    references public.organization_module_upgrades (organization_id, id) on delete cascade
);
create index integration_connections_org_idx on public.integration_connections (organization_id, user_module_upgrade_id);

create table public.integration_credentials (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  upgrade_id uuid not null references public.module_upgrades (id),
  provider text not null check (provider ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
  scope text not null check (char_length(scope) between 1 and 500),
  status public.integration_credential_status not null default 'connected',
  last_sync timestamptz,
  error_message text check (char_length(error_message) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, upgrade_id, provider, scope)
);
create index integration_credentials_upgrade_idx on public.integration_credentials (upgrade_id);

-- The OAuth tokens behind a credential live outside the exposed schema: no role but the owner
-- connection (the OAuth server function) ever reads them.
create table private.integration_tokens (
  credential_id uuid primary key references public.integration_credentials (id) on delete cascade,
  access_token text,
  refresh_token text,
  expires_at timestamptz,
  updated_at timestamptz not null default now()
);

create trigger module_sync_status_touch before update on public.module_sync_status
  for each row execute function public.touch_updated_at();
create trigger integration_connections_touch before update on public.integration_connections
  for each row execute function public.touch_updated_at();
create trigger integration_credentials_touch before update on public.integration_credentials
  for each row execute function public.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Gear ledger: every movement of gears. organizations.gears_owned is the sum of the grants and
-- gears_remaining the sum of all deltas; a deferred check enforces it at every commit that
-- touches either, so a balance written without its ledger row cannot be committed.
-- ---------------------------------------------------------------------------------------------

create table public.gear_ledger (
  id bigint generated always as identity primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  delta integer not null check (delta <> 0),
  balance_after integer not null check (balance_after >= 0),
  reason public.gear_reason not null,
  module_id uuid references public.modules (id),
  upgrade_id uuid references public.module_upgrades (id),
  actor_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  check (reason not in ('initial_grant', 'grant') or delta > 0),
  check (reason not in ('module_activation', 'upgrade_purchase') or delta < 0),
  check (reason <> 'module_activation' or module_id is not null),
  check (reason <> 'upgrade_purchase' or upgrade_id is not null)
);
create index gear_ledger_org_created_idx on public.gear_ledger (organization_id, created_at desc, id desc);

create function private.gear_ledger_append_only() returns trigger
language plpgsql set search_path = ''
as $$
begin
  -- Only the "who" may be cleared, when that user is deleted.
  if (new.id, new.organization_id, new.delta, new.balance_after, new.reason, new.module_id,
      new.upgrade_id, new.created_at)
     is distinct from
     (old.id, old.organization_id, old.delta, old.balance_after, old.reason, old.module_id,
      old.upgrade_id, old.created_at)
     or new.actor_id is not null and new.actor_id is distinct from old.actor_id then
    raise exception 'gear_ledger_append_only' using errcode = 'P0001';
  end if;
  return new;
end
$$;
create trigger gear_ledger_append_only before update on public.gear_ledger
  for each row execute function private.gear_ledger_append_only();

-- Organizations created before this migration get their ledger: the grant, and an adjustment
-- for anything already spent.
insert into public.gear_ledger (organization_id, delta, balance_after, reason, created_at)
select o.id, o.gears_owned, o.gears_owned, 'initial_grant', o.created_at
from public.organizations o where o.gears_owned > 0;
insert into public.gear_ledger (organization_id, delta, balance_after, reason, created_at)
select o.id, o.gears_remaining - o.gears_owned, o.gears_remaining, 'adjustment', o.created_at
from public.organizations o where o.gears_remaining <> o.gears_owned;

create function private.check_gear_balance() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  org uuid;
  owned integer;
  remaining integer;
  granted bigint;
  balance bigint;
begin
  if tg_table_name = 'organizations' then
    org := new.id;
  else
    org := new.organization_id;
  end if;
  select o.gears_owned, o.gears_remaining into owned, remaining
  from public.organizations o where o.id = org;
  if not found then
    return null;
  end if;
  select coalesce(sum(l.delta) filter (where l.reason in ('initial_grant', 'grant')), 0), coalesce(sum(l.delta), 0)
  into granted, balance
  from public.gear_ledger l where l.organization_id = org;
  if owned <> granted or remaining <> balance then
    raise exception 'gear_ledger_mismatch' using errcode = 'P0001',
      detail = format('organization %s: owned %s, granted %s, remaining %s, ledger %s', org, owned, granted, remaining, balance);
  end if;
  return null;
end
$$;
create constraint trigger organizations_gear_balance
  after insert or update of gears_owned, gears_remaining on public.organizations
  deferrable initially deferred for each row execute function private.check_gear_balance();
create constraint trigger gear_ledger_gear_balance
  after insert on public.gear_ledger
  deferrable initially deferred for each row execute function private.check_gear_balance();

-- ---------------------------------------------------------------------------------------------
-- Booking: services, providers, appointments
-- ---------------------------------------------------------------------------------------------

create table public.booking_services (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 120),
  description text check (char_length(description) <= 2000),
  price numeric(10, 2) not null default 0 check (price >= 0),
  duration_minutes integer not null default 30 check (duration_minutes between 5 and 720),
  color text not null default '#2563eb' check (color ~ '^#[0-9a-fA-F]{6}$'),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, id)
);
create index booking_services_org_name_idx on public.booking_services (organization_id, name);

create table public.booking_providers (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- A member of the organization, at most once; null when the provider has no account.
  user_id uuid,
  display_name text not null check (char_length(btrim(display_name)) between 1 and 120),
  bio text check (char_length(bio) <= 2000),
  avatar_url text check (char_length(avatar_url) <= 2048 and avatar_url ~ '^https?://[^\s]+$'),
  -- The provider's own hours; null means the organization's (booking_settings.business_hours).
  business_hours jsonb check (
    business_hours ?& array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
    and business_hours - array['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] = '{}'::jsonb
    and not jsonb_path_exists(business_hours, '$.* ? (@.type() != "object" || !exists(@.start) || !exists(@.end) || !exists(@.enabled))')
    and not jsonb_path_exists(business_hours, '$.* ? (@.start.type() != "string" || @.end.type() != "string" || @.enabled.type() != "boolean")')
    and not jsonb_path_exists(business_hours, '$.* ? (!(@.start like_regex "^([01][0-9]|2[0-3]):[0-5][0-9]$") || !(@.end like_regex "^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$") || @.start >= @.end)')
  ),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, user_id),
  unique (organization_id, id),
  foreign key (organization_id, user_id) references public.organization_members (organization_id, user_id)
    on delete set null (user_id)
);
create index booking_providers_org_name_idx on public.booking_providers (organization_id, display_name);

create table public.booking_appointments (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  service_id uuid,
  provider_id uuid,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  -- Set by the booking_appointments_derive trigger, never by a client: the buffer in force when
  -- the row was created, the end of the provider's blocked time (ends_at plus that buffer), and
  -- the local date and times in the organization's timezone (SPEC fields). The defaults only
  -- exist so that inserts need not name these columns; the trigger always overwrites them.
  buffer_minutes integer not null default 0 check (buffer_minutes >= 0),
  buffer_ends_at timestamptz not null default now(),
  appointment_date date not null default current_date,
  start_time time not null default '00:00',
  end_time time not null default '00:00',
  status public.appointment_status not null default 'pending',
  guest_name text not null check (char_length(btrim(guest_name)) between 1 and 120),
  guest_email text not null check (char_length(guest_email) <= 254 and guest_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  guest_phone text check (char_length(guest_phone) <= 40),
  notes text check (char_length(notes) <= 2000),
  total_price numeric(10, 2) not null default 0 check (total_price >= 0),
  -- sha256 (hex) of the guest's manage token; the token itself is returned once and never stored.
  manage_token_hash text unique check (manage_token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (ends_at > starts_at and ends_at - starts_at <= interval '24 hours'),
  -- Deleting a service or provider keeps its appointments.
  foreign key (organization_id, service_id) references public.booking_services (organization_id, id)
    on delete set null (service_id),
  foreign key (organization_id, provider_id) references public.booking_providers (organization_id, id)
    on delete set null (provider_id),
  -- No two live appointments of one provider overlap, buffer included, even under races.
  constraint booking_appointments_no_overlap exclude using gist (
    provider_id extensions.gist_uuid_ops with =,
    tstzrange(starts_at, buffer_ends_at, '[)') with &&
  ) where (status in ('pending', 'confirmed'))
);
create index booking_appointments_org_date_idx on public.booking_appointments (organization_id, appointment_date, start_time);
create index booking_appointments_org_starts_idx on public.booking_appointments (organization_id, starts_at);
create index booking_appointments_service_idx on public.booking_appointments (organization_id, service_id);
create index booking_appointments_provider_idx on public.booking_appointments (organization_id, provider_id, starts_at);

create function private.booking_appointments_derive() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  tz text;
  settings_buffer integer;
begin
  select s.timezone, s.buffer_minutes into tz, settings_buffer
  from public.booking_settings s where s.organization_id = new.organization_id;
  tz := coalesce(tz, 'UTC');
  if tg_op = 'INSERT' then
    new.buffer_minutes := coalesce(settings_buffer, 0);
  else
    new.buffer_minutes := old.buffer_minutes;
  end if;
  new.buffer_ends_at := new.ends_at + make_interval(mins => new.buffer_minutes);
  new.appointment_date := (new.starts_at at time zone tz)::date;
  new.start_time := (new.starts_at at time zone tz)::time;
  new.end_time := (new.ends_at at time zone tz)::time;
  return new;
end
$$;
create trigger booking_appointments_derive before insert or update on public.booking_appointments
  for each row execute function private.booking_appointments_derive();

create trigger booking_services_touch before update on public.booking_services
  for each row execute function public.touch_updated_at();
create trigger booking_providers_touch before update on public.booking_providers
  for each row execute function public.touch_updated_at();
create trigger booking_appointments_touch before update on public.booking_appointments
  for each row execute function public.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Privileges. Supabase's default privileges grant every new table to anon and authenticated;
-- take them all back, then grant per column what each role may do. Nothing here is granted to
-- anon: the public booking pages go through the functions of the next migration.
-- ---------------------------------------------------------------------------------------------

revoke all on public.clients, public.transactions, public.transaction_monthly_rollups,
  public.organization_transaction_totals, public.organization_client_transaction_counts,
  public.modules, public.module_upgrades, public.organization_modules,
  public.organization_module_upgrades, public.module_sync_status, public.integration_connections,
  public.integration_credentials, public.gear_ledger, public.booking_services,
  public.booking_providers, public.booking_appointments
  from anon, authenticated;
revoke all on sequence public.gear_ledger_id_seq from anon, authenticated;
revoke all on all tables in schema private from public, anon, authenticated;
revoke execute on all functions in schema private from public, anon, authenticated;

alter table public.clients enable row level security;
alter table public.transactions enable row level security;
alter table public.transaction_monthly_rollups enable row level security;
alter table public.organization_transaction_totals enable row level security;
alter table public.organization_client_transaction_counts enable row level security;
alter table public.modules enable row level security;
alter table public.module_upgrades enable row level security;
alter table public.organization_modules enable row level security;
alter table public.organization_module_upgrades enable row level security;
alter table public.module_sync_status enable row level security;
alter table public.integration_connections enable row level security;
alter table public.integration_credentials enable row level security;
alter table public.gear_ledger enable row level security;
alter table public.booking_services enable row level security;
alter table public.booking_providers enable row level security;
alter table public.booking_appointments enable row level security;

-- clients: members read and write their organization's clients.
grant select, delete on public.clients to authenticated;
grant insert (organization_id, user_id, name, email, phone, company, status) on public.clients to authenticated;
grant update (name, email, phone, company, status) on public.clients to authenticated;
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

-- transactions: members read and write their organization's transactions.
grant select, delete on public.transactions to authenticated;
grant insert (organization_id, user_id, client_id, external_id, amount, date_received, category,
  payment_method, description) on public.transactions to authenticated;
grant update (client_id, external_id, amount, date_received, category, payment_method, description)
  on public.transactions to authenticated;
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

-- Rollups: read by members, written only by the transactions triggers.
grant select on public.transaction_monthly_rollups, public.organization_transaction_totals,
  public.organization_client_transaction_counts to authenticated;
create policy "transaction_monthly_rollups: members read their organization's rollups"
  on public.transaction_monthly_rollups for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "organization_transaction_totals: members read their organization's totals"
  on public.organization_transaction_totals for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "organization_client_transaction_counts: members read their organization's counts"
  on public.organization_client_transaction_counts for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- The catalogue: every signed-in user reads it; only the seed writes it.
grant select on public.modules, public.module_upgrades to authenticated;
create policy "modules: signed-in users read the catalogue"
  on public.modules for select to authenticated using (true);
create policy "module_upgrades: signed-in users read the catalogue"
  on public.module_upgrades for select to authenticated using (true);

-- An organization's modules, upgrades, sync status and gear ledger: members read; only the
-- functions (which check the caller's role) write.
grant select on public.organization_modules, public.organization_module_upgrades,
  public.module_sync_status, public.gear_ledger to authenticated;
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

-- Integrations: members read them and may disconnect (the only update allowed); connecting is
-- done by the OAuth server function on the owner connection, which also holds the tokens.
grant select on public.integration_connections, public.integration_credentials to authenticated;
grant update (status) on public.integration_connections, public.integration_credentials to authenticated;
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

-- Booking services and providers: members manage them.
grant select, delete on public.booking_services to authenticated;
grant insert (organization_id, name, description, price, duration_minutes, color, is_active)
  on public.booking_services to authenticated;
grant update (name, description, price, duration_minutes, color, is_active)
  on public.booking_services to authenticated;
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

grant select, delete on public.booking_providers to authenticated;
grant insert (organization_id, user_id, display_name, bio, avatar_url, business_hours, is_active)
  on public.booking_providers to authenticated;
grant update (display_name, bio, avatar_url, business_hours, is_active)
  on public.booking_providers to authenticated;
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

-- Appointments: members read, add and update (status changes, rescheduling); they are cancelled,
-- never deleted. The derived columns, the buffer and the token hash are not writable.
grant select on public.booking_appointments to authenticated;
grant insert (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name,
  guest_email, guest_phone, notes, total_price) on public.booking_appointments to authenticated;
grant update (service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email,
  guest_phone, notes, total_price) on public.booking_appointments to authenticated;
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
