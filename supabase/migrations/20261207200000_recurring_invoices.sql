-- Recurring invoices (docs/product.md, Recurring invoices; the upgrade "Recurring Invoices" of
-- Invoicing, app/lib/modules.ts): a schedule bills a client the same lines every week, month or
-- year, by itself, through the scheduler's job `recurring-invoices` (app/.server/invoices/recurring.ts).
--
-- * public.recurring_invoices: the schedule (client, language, notes, tax, discount, days until
--   due, cadence, the anchor date its periods count from, an end date or a number of invoices,
--   active or paused) and public.recurring_invoice_lines its lines. Members of the organization
--   write them, as they write drafts (row level security, column grants); the dates it runs on
--   (next_run), how many it made and why it stopped are the database's.
-- * Periods count from the anchor: the n-th is anchor + n weeks, months or years, so a schedule on
--   the 31st bills on the last day of a shorter month and on the 31st again after it, and one on
--   February 29 bills on February 28 in the years without it.
-- * public.make_recurring_invoice(schedule, period, invoice id, token hash, sealed token) makes one period's
--   invoice, sends it (public.send_invoice: number, memo code, what the engine waits for) and
--   records it in public.recurring_invoice_runs, in one transaction: a period has one invoice at
--   most (unique (schedule, period)), so a run retried after a crash, or two instances at once,
--   never bill it twice.
-- * Gated on the upgrade: a schedule is created, edited or resumed only while the organization owns
--   it (upgrade_inactive), and runs only then.

-- 1 Tables ----------------------------------------------------------------------------------------

create table public.recurring_invoices (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  client_id uuid,
  -- The language of its invoices (their mail and public page).
  language text not null default 'en' check (language in ('en', 'es', 'pt-BR')),
  notes text check (char_length(notes) <= 2000),
  tax_rate numeric(5, 2) not null default 0 check (tax_rate >= 0 and tax_rate <= 100),
  discount numeric(12, 2) not null default 0 check (discount >= 0),
  days_until_due integer not null default 14 check (days_until_due between 0 and 365),
  cadence text not null check (cadence in ('weekly', 'monthly', 'yearly')),
  -- The first period's date; the others count from it.
  anchor_date date not null,
  -- It ends after its end date, or once it made max_count invoices (or never).
  end_date date,
  max_count integer check (max_count between 1 and 1000),
  active boolean not null default true,
  -- Kept by the database: the next period to bill (null while paused or once ended), what it made.
  next_run date,
  made_count integer not null default 0 check (made_count >= 0),
  last_period date,
  -- Why the database paused it (client_removed, module_inactive, upgrade_inactive, invoice_without_client,
  -- invoice_empty, discount_over_subtotal); cleared when resumed.
  paused_reason text check (char_length(paused_reason) <= 40),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, id),
  check (end_date is null or max_count is null),
  check (end_date is null or end_date >= anchor_date),
  foreign key (organization_id, client_id) references public.clients (organization_id, id) on delete set null (client_id)
);
create index recurring_invoices_org_created_idx on public.recurring_invoices (organization_id, created_at desc, id);
create index recurring_invoices_client_idx on public.recurring_invoices (organization_id, client_id);
-- The job's scan: what is due, across organizations.
create index recurring_invoices_due_idx on public.recurring_invoices (next_run) where next_run is not null;
create trigger recurring_invoices_touch before update on public.recurring_invoices
  for each row execute function public.touch_updated_at();

create table public.recurring_invoice_lines (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  recurring_invoice_id uuid not null,
  position integer not null check (position >= 0 and position < 200),
  description text not null check (char_length(btrim(description)) between 1 and 500),
  quantity numeric(12, 3) not null check (quantity > 0 and quantity <= 1000000),
  unit_price numeric(12, 2) not null check (unit_price >= 0 and unit_price <= 10000000),
  unique (recurring_invoice_id, position),
  foreign key (organization_id, recurring_invoice_id) references public.recurring_invoices (organization_id, id) on delete cascade
);

-- The history: one row per period billed, naming its invoice.
create table public.recurring_invoice_runs (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  recurring_invoice_id uuid not null,
  period_date date not null,
  invoice_id uuid not null unique,
  created_at timestamptz not null default now(),
  unique (recurring_invoice_id, period_date),
  foreign key (organization_id, recurring_invoice_id) references public.recurring_invoices (organization_id, id) on delete cascade,
  foreign key (organization_id, invoice_id) references public.invoices (organization_id, id) on delete cascade
);

-- 2 Access: members of the organization read and write its schedules; the history is the database's

revoke all on public.recurring_invoices, public.recurring_invoice_lines, public.recurring_invoice_runs from anon, authenticated;
alter table public.recurring_invoices enable row level security;
alter table public.recurring_invoice_lines enable row level security;
alter table public.recurring_invoice_runs enable row level security;
grant select, delete on public.recurring_invoices to authenticated;
grant insert (organization_id, client_id, language, notes, tax_rate, discount, days_until_due, cadence, anchor_date, end_date,
  max_count, active, created_by) on public.recurring_invoices to authenticated;
grant update (client_id, language, notes, tax_rate, discount, days_until_due, cadence, anchor_date, end_date, max_count, active)
  on public.recurring_invoices to authenticated;
grant select, insert, update, delete on public.recurring_invoice_lines to authenticated;
grant select on public.recurring_invoice_runs to authenticated;

create policy "recurring_invoices: members read their organization's schedules"
  on public.recurring_invoices for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "recurring_invoices: members create schedules in their organization, as themselves"
  on public.recurring_invoices for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()) and created_by = (select auth.uid()));
create policy "recurring_invoices: members edit their organization's schedules"
  on public.recurring_invoices for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "recurring_invoices: members delete their organization's schedules"
  on public.recurring_invoices for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "recurring_invoice_lines: members read their organization's schedule lines"
  on public.recurring_invoice_lines for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "recurring_invoice_lines: members add lines to their organization's schedules"
  on public.recurring_invoice_lines for insert to authenticated
  with check (organization_id in (select public.my_organization_ids()));
create policy "recurring_invoice_lines: members change lines of their organization's schedules"
  on public.recurring_invoice_lines for update to authenticated
  using (organization_id in (select public.my_organization_ids()))
  with check (organization_id in (select public.my_organization_ids()));
create policy "recurring_invoice_lines: members remove lines of their organization's schedules"
  on public.recurring_invoice_lines for delete to authenticated
  using (organization_id in (select public.my_organization_ids()));

create policy "recurring_invoice_runs: members read their organization's history"
  on public.recurring_invoice_runs for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

-- 3 Periods ---------------------------------------------------------------------------------------

-- The n-th period (from 0) of a schedule anchored on p_anchor: PostgreSQL's month and year
-- arithmetic keeps the anchor's day, or the month's last day when it has none (Jan 31 + 1 month =
-- Feb 28; Feb 29 + 1 year = Feb 28), and counting from the anchor, not from the last period, brings
-- the 31st back after a short month.
create function private.recurring_period(p_anchor date, p_cadence text, p_n integer) returns date
language sql immutable set search_path = ''
as $$
  select case p_cadence
    when 'weekly' then p_anchor + 7 * p_n
    when 'monthly' then (p_anchor + make_interval(months => p_n))::date
    when 'yearly' then (p_anchor + make_interval(years => p_n))::date
  end
$$;

-- The first period on or after p_from.
create function private.recurring_period_from(p_anchor date, p_cadence text, p_from date) returns date
language plpgsql immutable set search_path = ''
as $$
declare
  n integer;
begin
  if p_from <= p_anchor then
    return p_anchor;
  end if;
  -- A guess at or below the answer, then up: periods only grow with n.
  n := case p_cadence
    when 'weekly' then (p_from - p_anchor) / 7
    when 'monthly' then greatest(((extract(year from p_from) - extract(year from p_anchor)) * 12
      + extract(month from p_from) - extract(month from p_anchor))::integer - 1, 0)
    else greatest((extract(year from p_from) - extract(year from p_anchor))::integer - 1, 0)
  end;
  while private.recurring_period(p_anchor, p_cadence, n) < p_from loop
    n := n + 1;
  end loop;
  return private.recurring_period(p_anchor, p_cadence, n);
end
$$;

-- The next period a schedule bills after p_after, or null when it has ended (its count made, or
-- past its end date).
create function private.recurring_next(r public.recurring_invoices, p_after date) returns date
language plpgsql immutable set search_path = ''
as $$
declare
  d date;
begin
  if r.max_count is not null and r.made_count >= r.max_count then
    return null;
  end if;
  d := private.recurring_period_from(r.anchor_date, r.cadence, p_after + 1);
  if r.end_date is not null and d > r.end_date then
    return null;
  end if;
  return d;
end
$$;

-- The organization's date today, in its zone (as public.invoice_overview reads "overdue").
create function private.organization_today(p_organization_id uuid) returns date
language sql stable security definer set search_path = ''
as $$
  select (now() at time zone coalesce(
    (select s.timezone from public.booking_settings s where s.organization_id = p_organization_id), 'UTC'))::date
$$;

-- 4 A schedule's own rules ------------------------------------------------------------------------

-- Written by members: created, edited or resumed only with the upgrade and a client; its next
-- period follows its dates (never one already billed, never before today); pausing clears it, and a
-- client deleted or merged away pauses it (client_removed). The database's own writes (what was
-- made, the next period) pass untouched.
create function private.recurring_invoices_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.client_id is null and old.client_id is not null and new.active then
    new.active := false;
    new.paused_reason := 'client_removed';
  end if;
  if tg_op = 'UPDATE' and (new.client_id, new.language, new.notes, new.tax_rate, new.discount, new.days_until_due, new.cadence,
      new.anchor_date, new.end_date, new.max_count, new.active)
    is not distinct from (old.client_id, old.language, old.notes, old.tax_rate, old.discount, old.days_until_due, old.cadence,
      old.anchor_date, old.end_date, old.max_count, old.active) then
    return new;
  end if;
  if not new.active then
    new.next_run := null;
    return new;
  end if;
  if not private.owns_upgrade(new.organization_id, 'c0000000-0000-4000-8000-000000000013') then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  if new.client_id is null then
    raise exception 'invoice_without_client' using errcode = 'P0001';
  end if;
  if tg_op = 'INSERT' then
    new.made_count := 0;
    new.last_period := null;
  end if;
  new.paused_reason := null;
  new.next_run := private.recurring_next(new,
    greatest(private.organization_today(new.organization_id) - 1, coalesce(new.last_period, '-infinity'::date)));
  return new;
end
$$;
create trigger recurring_invoices_before_write before insert or update on public.recurring_invoices
  for each row execute function private.recurring_invoices_before_write();

-- 5 Making one period's invoice -------------------------------------------------------------------

-- Makes and sends the invoice of one period of a schedule, for a member of its organization (the
-- job runs it as the schedule's author, or an owner): the invoice (with the id the server chose,
-- which its sealed page token is bound to) and its lines copied, issued on the period's date and
-- due days_until_due after it, sent (public.send_invoice, with the page token the server made),
-- recorded in the history; then the schedule moves to its next period, or ends. Returns
-- what happened:
-- * made: made now (made_invoice: its id);
-- * already_made: this period was billed already (made_invoice: that invoice): a retried run mails
--   it if its mail did not go;
-- * not_due: the schedule is paused, ended or at another period (it changed since);
-- * not_yet: the period is after the organization's today;
-- * module_inactive, upgrade_inactive, invoice_without_client, invoice_empty, discount_over_subtotal:
--   the invoice could not be sent; the schedule is paused with that reason (resuming it starts again
--   from today).
-- Refusals (raised): not_found, not_member.
create function public.make_recurring_invoice(p_schedule_id uuid, p_period date, p_invoice_id uuid, p_token_hash text, p_sealed_token text)
returns table (result text, made_invoice uuid)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  r public.recurring_invoices;
  c public.clients;
  inv uuid;
  line_count integer;
  sub numeric;
  refusal text;
begin
  select * into r from public.recurring_invoices where id = p_schedule_id for update;
  if not found then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(r.organization_id);
  select x.invoice_id into inv from public.recurring_invoice_runs x where x.recurring_invoice_id = r.id and x.period_date = p_period;
  if found then
    return query select 'already_made'::text, inv;
    return;
  end if;
  if not r.active or r.next_run is distinct from p_period then
    return query select 'not_due'::text, null::uuid;
    return;
  end if;
  if p_period > private.organization_today(r.organization_id) then
    return query select 'not_yet'::text, null::uuid;
    return;
  end if;
  select count(*), coalesce(sum(round(l.quantity * l.unit_price, 2)), 0) into line_count, sub
  from public.recurring_invoice_lines l where l.recurring_invoice_id = r.id;
  select * into c from public.clients where id = r.client_id;
  refusal := case
    when not private.organization_has_module(r.organization_id, 'b0000000-0000-4000-8000-000000000005') then 'module_inactive'
    when not private.owns_upgrade(r.organization_id, 'c0000000-0000-4000-8000-000000000013') then 'upgrade_inactive'
    when c.id is null or btrim(coalesce(c.name, '')) = '' then 'invoice_without_client'
    when r.discount > sub then 'discount_over_subtotal'
    when line_count = 0 or round((sub - r.discount) * (1 + r.tax_rate / 100), 2) <= 0 then 'invoice_empty'
  end;
  if refusal is not null then
    update public.recurring_invoices set active = false, paused_reason = refusal where id = r.id;
    return query select refusal, null::uuid;
    return;
  end if;

  insert into public.invoices (id, organization_id, client_id, language, issue_date, due_date, notes, tax_rate, discount, created_by)
  values (p_invoice_id, r.organization_id, r.client_id, r.language, p_period, p_period + r.days_until_due, r.notes, r.tax_rate, 0, auth.uid())
  returning id into inv;
  insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
  select r.organization_id, inv, l.position, l.description, l.quantity, l.unit_price
  from public.recurring_invoice_lines l where l.recurring_invoice_id = r.id;
  -- The discount after the lines: an invoice's discount never exceeds its subtotal.
  if r.discount > 0 then
    update public.invoices set discount = r.discount where id = inv;
  end if;
  perform public.send_invoice(inv, p_token_hash, p_sealed_token);
  insert into public.recurring_invoice_runs (organization_id, recurring_invoice_id, period_date, invoice_id)
  values (r.organization_id, r.id, p_period, inv);
  r.made_count := r.made_count + 1;
  update public.recurring_invoices
  set made_count = r.made_count, last_period = p_period, next_run = private.recurring_next(r, p_period)
  where id = r.id;
  return query select 'made'::text, inv;
end
$$;

revoke execute on function private.recurring_period(date, text, integer), private.recurring_period_from(date, text, date),
  private.recurring_next(public.recurring_invoices, date), private.organization_today(uuid),
  private.recurring_invoices_before_write() from public, anon, authenticated;
revoke execute on function public.make_recurring_invoice(uuid, date, uuid, text, text) from public, anon, authenticated;
grant execute on function public.make_recurring_invoice(uuid, date, uuid, text, text) to authenticated;
