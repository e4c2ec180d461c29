-- Webhooks (docs/product.md, Webhooks; docs/webhooks.md; docs/decisions/050-webhooks.md): an
-- organization with the Automation Unlimited upgrade (c0000000-0000-4000-8000-000000000015) posts
-- signed events to addresses of its own. Three tables:
--
-- - public.webhook_endpoints: the addresses and the events each wants, with their signing secrets
--   sealed by the server (app/.server/secrets.ts) in private.webhook_secrets, readable by no
--   member. Owners and administrators add them (public.add_webhook_endpoint, while the
--   organization owns the upgrade), read, turn off and remove them.
-- - public.webhook_events: the outbox. Statement triggers on transactions, booking_appointments
--   and invoices write one row per change, in the changing transaction, so every path (a form, an
--   import, the matching engine, the public booking) is covered. An organization without an
--   endpoint pays one `exists` per statement and nothing else.
-- - public.webhook_deliveries: one per event and endpoint that wants it: its status, attempts,
--   the next attempt's time (the backoff), the last answer. The scheduler's job
--   (app/.server/webhooks/delivery.ts) reads what is due and records each attempt through
--   private.record_webhook_attempt; owners and administrators resend one (public.resend_webhook_delivery).

create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  url text not null check (char_length(url) between 8 and 2000 and url ~ '^https?://'),
  description text check (char_length(description) <= 200),
  events text[] not null check (cardinality(events) between 1 and 6 and events <@ array[
    'payment.received', 'booking.created', 'booking.confirmed', 'booking.cancelled', 'invoice.sent', 'invoice.paid']::text[]),
  enabled boolean not null default true,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (organization_id, id)
);
create index webhook_endpoints_org_idx on public.webhook_endpoints (organization_id) where enabled;
create index webhook_endpoints_created_by_idx on public.webhook_endpoints (created_by);

alter table public.webhook_endpoints enable row level security;
revoke all on public.webhook_endpoints from anon, authenticated;
-- Added only through public.add_webhook_endpoint (with its secret); turned on and off, removed, by owners and administrators.
grant select on public.webhook_endpoints to authenticated;
grant update (enabled) on public.webhook_endpoints to authenticated;
grant delete on public.webhook_endpoints to authenticated;

create policy "webhook_endpoints: owners and administrators read their organization's endpoints"
  on public.webhook_endpoints for select to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "webhook_endpoints: owners and administrators turn endpoints on and off"
  on public.webhook_endpoints for update to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')))
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "webhook_endpoints: owners and administrators remove endpoints"
  on public.webhook_endpoints for delete to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));

-- Each endpoint's signing secret, sealed by the server with the endpoint's id as context: read
-- by the delivery job only, never by a member.
create table private.webhook_secrets (
  endpoint_id uuid primary key references public.webhook_endpoints (id) on delete cascade,
  secret_sealed text not null check (char_length(secret_sealed) between 10 and 500)
);
alter table private.webhook_secrets enable row level security;
revoke all on private.webhook_secrets from public, anon, authenticated;

-- Adds an endpoint with its sealed secret, as an owner or administrator of the organization,
-- while it owns Automation Unlimited, at most 10 per organization. Stable codes: forbidden,
-- upgrade_inactive, endpoint_limit.
create function public.add_webhook_endpoint(
  p_organization_id uuid, p_id uuid, p_url text, p_description text, p_events text[], p_secret_sealed text
) returns uuid
language plpgsql security definer set search_path = ''
as $$
begin
  if not (p_organization_id in (select public.my_organization_ids('owner'))
      or p_organization_id in (select public.my_organization_ids('administrator'))) then
    raise exception 'forbidden' using errcode = 'P0001';
  end if;
  if not private.owns_upgrade(p_organization_id, 'c0000000-0000-4000-8000-000000000015') then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  -- Serializes the organization's additions, so two at once cannot both pass the count.
  perform 1 from public.organizations o where o.id = p_organization_id for update;
  if (select count(*) from public.webhook_endpoints e where e.organization_id = p_organization_id) >= 10 then
    raise exception 'endpoint_limit' using errcode = 'P0001';
  end if;
  insert into public.webhook_endpoints (id, organization_id, url, description, events, created_by)
  values (p_id, p_organization_id, p_url, p_description, p_events, auth.uid());
  insert into private.webhook_secrets (endpoint_id, secret_sealed) values (p_id, p_secret_sealed);
  return p_id;
end
$$;
revoke execute on function public.add_webhook_endpoint(uuid, uuid, text, text, text[], text) from public, anon;
grant execute on function public.add_webhook_endpoint(uuid, uuid, text, text, text[], text) to authenticated;

-- The outbox: one row per change, its payload as the receivers get it (docs/webhooks.md).
create table public.webhook_events (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  type text not null check (type in (
    'payment.received', 'booking.created', 'booking.confirmed', 'booking.cancelled', 'invoice.sent', 'invoice.paid')),
  -- What it is about (a payment, a booking, an invoice): the payload's data.id.
  subject_id uuid not null,
  data jsonb not null,
  created_at timestamptz not null default now(),
  unique (organization_id, id)
);
create index webhook_events_org_created_idx on public.webhook_events (organization_id, created_at desc);

alter table public.webhook_events enable row level security;
revoke all on public.webhook_events from anon, authenticated;
grant select on public.webhook_events to authenticated;
create policy "webhook_events: owners and administrators read their organization's events"
  on public.webhook_events for select to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));

create table public.webhook_deliveries (
  -- Sent as the P2P-Delivery header: unique per event and endpoint, the same on every attempt.
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  event_id uuid not null,
  endpoint_id uuid not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  -- Attempts made so far; the next one is attempts + 1, due at next_attempt_at.
  attempts integer not null default 0 check (attempts between 0 and 1000),
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  -- The last answer's HTTP status (null: no answer), or why there was none.
  response_status integer check (response_status between 100 and 599),
  error text check (error in ('refused', 'unresolved', 'timeout', 'too_large', 'unreachable', 'invalid', 'status')),
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  unique (event_id, endpoint_id),
  check ((status = 'pending') = (next_attempt_at is not null)),
  check ((status = 'delivered') = (delivered_at is not null)),
  foreign key (organization_id, event_id) references public.webhook_events (organization_id, id) on delete cascade,
  foreign key (organization_id, endpoint_id) references public.webhook_endpoints (organization_id, id) on delete cascade
);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_org_created_idx on public.webhook_deliveries (organization_id, created_at desc, id);
create index webhook_deliveries_endpoint_idx on public.webhook_deliveries (endpoint_id);
create index webhook_deliveries_event_idx on public.webhook_deliveries (event_id);

alter table public.webhook_deliveries enable row level security;
revoke all on public.webhook_deliveries from anon, authenticated;
grant select on public.webhook_deliveries to authenticated;
create policy "webhook_deliveries: owners and administrators read their organization's deliveries"
  on public.webhook_deliveries for select to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));

-- ---------------------------------------------------------------------------------------------
-- Writing events: rows (organization_id, type, subject_id, data) to the outbox and a delivery per
-- enabled endpoint of an organization with the upgrade that wants the type. Called by the
-- statement triggers below only after their one `exists` found an endpoint.
-- ---------------------------------------------------------------------------------------------

create function private.webhook_fan_out(p_events jsonb) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  with incoming as (
    select (e ->> 'organization_id')::uuid as organization_id, e ->> 'type' as type, (e ->> 'subject_id')::uuid as subject_id, e -> 'data' as data
    from jsonb_array_elements(p_events) e
  ), wanting as (
    -- The (organization, type) pairs some enabled endpoint wants, once each, for the organizations
    -- of these events that own the upgrade: a hash join below, whatever the number of events.
    select distinct w.organization_id, t.type
    from public.webhook_endpoints w cross join unnest(w.events) t(type)
    where w.enabled and w.organization_id in (select distinct organization_id from incoming)
      and private.owns_upgrade(w.organization_id, 'c0000000-0000-4000-8000-000000000015')
  ), wanted as (
    select i.* from incoming i join wanting o on o.organization_id = i.organization_id and o.type = i.type
  ), written as (
    insert into public.webhook_events (organization_id, type, subject_id, data)
    select organization_id, type, subject_id, data from wanted
    returning id, organization_id, type
  )
  insert into public.webhook_deliveries (organization_id, event_id, endpoint_id, next_attempt_at)
  select w.organization_id, w.id, e.id, now()
  from written w join public.webhook_endpoints e on e.organization_id = w.organization_id and e.enabled and w.type = any (e.events);
end
$$;
revoke execute on function private.webhook_fan_out(jsonb) from public, anon, authenticated;

-- Whether any organization of a statement's rows has an enabled endpoint: the one question an
-- organization without webhooks pays per statement.
create function private.webhooks_wanted(p_organizations uuid[]) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from public.webhook_endpoints e where e.enabled and e.organization_id = any (p_organizations))
$$;
revoke execute on function private.webhooks_wanted(uuid[]) from public, anon, authenticated;

-- payment.received: a payment recorded, by any path.
create function private.transactions_webhooks() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if not private.webhooks_wanted(array(select distinct n.organization_id from new_rows n)) then
    return null;
  end if;
  perform private.webhook_fan_out(coalesce(jsonb_agg(jsonb_build_object(
    'organization_id', n.organization_id, 'type', 'payment.received', 'subject_id', n.id,
    'data', jsonb_build_object('id', n.id, 'amount', n.amount::text, 'date_received', n.date_received,
      'payment_method', n.payment_method, 'payer', n.raw_payer, 'description', n.description,
      'external_id', n.external_id, 'client_id', n.client_id, 'category', n.category, 'source', n.import_source,
      'created_at', n.created_at))), '[]'::jsonb))
  from new_rows n;
  return null;
end
$$;
revoke execute on function private.transactions_webhooks() from public, anon, authenticated;
create trigger transactions_webhooks after insert on public.transactions
  referencing new table as new_rows for each statement execute function private.transactions_webhooks();

-- The payload of a booking, from its row as JSON.
create function private.booking_webhook_data(a jsonb) returns jsonb
language sql immutable set search_path = ''
as $$
  select jsonb_build_object('id', a -> 'id', 'status', a -> 'status', 'starts_at', a -> 'starts_at', 'ends_at', a -> 'ends_at',
    'service_id', a -> 'service_id', 'provider_id', a -> 'provider_id', 'client_id', a -> 'client_id',
    'guest_name', a -> 'guest_name', 'guest_email', a -> 'guest_email', 'total_price', to_jsonb(a ->> 'total_price'),
    'created_at', a -> 'created_at')
$$;
revoke execute on function private.booking_webhook_data(jsonb) from public, anon, authenticated;

-- booking.created for every new booking; booking.confirmed too when it is made confirmed.
create function private.booking_appointments_webhooks_inserted() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if not private.webhooks_wanted(array(select distinct n.organization_id from new_rows n)) then
    return null;
  end if;
  perform private.webhook_fan_out(coalesce(jsonb_agg(jsonb_build_object(
    'organization_id', x.organization_id, 'type', x.type, 'subject_id', x.id, 'data', private.booking_webhook_data(x.j))
    order by x.id, x.type desc), '[]'::jsonb))
  from (
    select n.organization_id, n.id, 'booking.created' as type, to_jsonb(n) as j from new_rows n
    union all
    select n.organization_id, n.id, 'booking.confirmed', to_jsonb(n) from new_rows n where n.status = 'confirmed'
  ) x;
  return null;
end
$$;
revoke execute on function private.booking_appointments_webhooks_inserted() from public, anon, authenticated;
create trigger booking_appointments_webhooks_inserted after insert on public.booking_appointments
  referencing new table as new_rows for each statement execute function private.booking_appointments_webhooks_inserted();

-- booking.confirmed and booking.cancelled when its status becomes so.
create function private.booking_appointments_webhooks_updated() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if not private.webhooks_wanted(array(select distinct n.organization_id from new_rows n)) then
    return null;
  end if;
  perform private.webhook_fan_out(coalesce(jsonb_agg(jsonb_build_object(
    'organization_id', n.organization_id, 'type', 'booking.' || n.status::text, 'subject_id', n.id,
    'data', private.booking_webhook_data(to_jsonb(n)))), '[]'::jsonb))
  from new_rows n join old_rows o on o.id = n.id
  where n.status in ('confirmed', 'cancelled') and o.status <> n.status;
  return null;
end
$$;
revoke execute on function private.booking_appointments_webhooks_updated() from public, anon, authenticated;
create trigger booking_appointments_webhooks_updated after update on public.booking_appointments
  referencing old table as old_rows new table as new_rows for each statement execute function private.booking_appointments_webhooks_updated();

-- invoice.sent when a draft is sent; invoice.paid when a sent invoice's received amount reaches its total.
create function private.invoices_webhooks() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if not private.webhooks_wanted(array(select distinct n.organization_id from new_rows n)) then
    return null;
  end if;
  perform private.webhook_fan_out(coalesce(jsonb_agg(jsonb_build_object(
    'organization_id', x.organization_id, 'type', x.type, 'subject_id', x.id,
    'data', jsonb_build_object('id', x.id, 'number', x.number, 'status', x.status, 'client_id', x.client_id,
      'bill_to_name', x.bill_to_name, 'bill_to_email', x.bill_to_email, 'issue_date', x.issue_date, 'due_date', x.due_date,
      'total', x.total::text, 'amount_paid', x.amount_paid::text, 'sent_at', x.sent_at)) order by x.id, x.type desc), '[]'::jsonb))
  from (
    select n.*, 'invoice.sent' as type from new_rows n join old_rows o on o.id = n.id
    where o.status = 'draft' and n.status = 'sent'
    union all
    select n.*, 'invoice.paid' from new_rows n join old_rows o on o.id = n.id
    where n.status = 'sent' and n.amount_paid >= n.total and n.total > 0
      and not (o.status = 'sent' and o.amount_paid >= o.total and o.total > 0)
  ) x;
  return null;
end
$$;
revoke execute on function private.invoices_webhooks() from public, anon, authenticated;
create trigger invoices_webhooks after update on public.invoices
  referencing old table as old_rows new table as new_rows for each statement execute function private.invoices_webhooks();

-- ---------------------------------------------------------------------------------------------
-- Attempts: recorded by the delivery job (the server, as the system), resent by owners and
-- administrators.
-- ---------------------------------------------------------------------------------------------

-- The wait before attempt n + 1 after n failed ones: 1 min, 5 min, 30 min, 2 h, 12 h; after the
-- sixth failed attempt, none (the delivery fails).
create function private.webhook_backoff(p_failed integer) returns interval
language sql immutable set search_path = ''
as $$
  select (array[interval '1 minute', interval '5 minutes', interval '30 minutes', interval '2 hours', interval '12 hours'])[p_failed]
$$;
revoke execute on function private.webhook_backoff(integer) from public, anon, authenticated;

-- Records attempt p_attempt of a delivery: delivered on a 2xx, else the next attempt after the
-- backoff, or failed after the last one. Ignored (returns null) when the attempt is not the
-- delivery's next one any more (a resend or another instance went first).
create function private.record_webhook_attempt(p_delivery_id uuid, p_attempt integer, p_response_status integer, p_error text, p_at timestamptz)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  d public.webhook_deliveries;
  wait interval;
begin
  select * into d from public.webhook_deliveries where id = p_delivery_id for update;
  if not found or d.status <> 'pending' or d.attempts + 1 <> p_attempt then
    return null;
  end if;
  if p_error is null and p_response_status between 200 and 299 then
    update public.webhook_deliveries set status = 'delivered', attempts = p_attempt, last_attempt_at = p_at,
      response_status = p_response_status, error = null, delivered_at = p_at, next_attempt_at = null
    where id = p_delivery_id;
    return 'delivered';
  end if;
  wait := private.webhook_backoff(p_attempt);
  update public.webhook_deliveries set attempts = p_attempt, last_attempt_at = p_at, response_status = p_response_status,
    error = coalesce(p_error, 'status'),
    status = case when wait is null then 'failed' else 'pending' end,
    next_attempt_at = case when wait is null then null else p_at + wait end
  where id = p_delivery_id;
  return case when wait is null then 'failed' else 'pending' end;
end
$$;
revoke execute on function private.record_webhook_attempt(uuid, integer, integer, text, timestamptz) from public, anon, authenticated;

-- Resends a delivery now (any status), as an owner or administrator of its organization while it
-- owns the upgrade; returns the attempt to make. Stable codes: not_found, upgrade_inactive,
-- endpoint_disabled.
create function public.resend_webhook_delivery(p_delivery_id uuid) returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  d public.webhook_deliveries;
begin
  select * into d from public.webhook_deliveries where id = p_delivery_id for update;
  if not found or not (d.organization_id in (select public.my_organization_ids('owner'))
      or d.organization_id in (select public.my_organization_ids('administrator'))) then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  if not private.owns_upgrade(d.organization_id, 'c0000000-0000-4000-8000-000000000015') then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.webhook_endpoints e where e.id = d.endpoint_id and e.enabled) then
    raise exception 'endpoint_disabled' using errcode = 'P0001';
  end if;
  update public.webhook_deliveries set status = 'pending', next_attempt_at = now(), delivered_at = null
  where id = p_delivery_id;
  return d.attempts + 1;
end
$$;
revoke execute on function public.resend_webhook_delivery(uuid) from public, anon;
grant execute on function public.resend_webhook_delivery(uuid) to authenticated;
