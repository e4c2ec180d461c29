-- Report automation (docs/product.md, Reports › Automation): an organization's scheduled reports
-- (weekly, monthly) and threshold alerts (received more than an amount this week; a client who
-- has not paid for N weeks), and the members they are mailed to. One row per organization.
-- Members read it; owners and administrators write it, only while the organization owns the
-- Automation upgrade (c0000000-0000-4000-8000-000000000011), and only for recipients who are
-- members of it (stable codes: upgrade_inactive, recipient_not_member). The job that mails them
-- (app/.server/reports/automation-job.ts) reads it as the system, and mails only recipients who
-- are still members when it runs.

create table public.report_automations (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  weekly_report boolean not null default false,
  monthly_report boolean not null default false,
  recipients uuid[] not null default '{}' check (cardinality(recipients) <= 100 and array_position(recipients, null) is null),
  revenue_threshold numeric(12, 2) check (revenue_threshold > 0 and revenue_threshold < 10000000000),
  dormant_weeks integer check (dormant_weeks between 1 and 52),
  updated_at timestamptz not null default now()
);

alter table public.report_automations enable row level security;
revoke all on public.report_automations from anon, authenticated;
grant select on public.report_automations to authenticated;
grant insert (organization_id, weekly_report, monthly_report, recipients, revenue_threshold, dormant_weeks)
  on public.report_automations to authenticated;
grant update (weekly_report, monthly_report, recipients, revenue_threshold, dormant_weeks) on public.report_automations to authenticated;

create policy "report_automations: members read their organization's automation"
  on public.report_automations for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "report_automations: owners and administrators set their organization's automation"
  on public.report_automations for insert to authenticated
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "report_automations: owners and administrators change their organization's automation"
  on public.report_automations for update to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')))
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));

-- Written by members: only with the upgrade, only to members of the organization (each once).
create function private.report_automations_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if not private.owns_upgrade(new.organization_id, 'c0000000-0000-4000-8000-000000000011') then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  new.recipients := array(select distinct r from unnest(new.recipients) r order by r);
  if exists (select 1 from unnest(new.recipients) r
      where not exists (select 1 from public.organization_members m where m.organization_id = new.organization_id and m.user_id = r)) then
    raise exception 'recipient_not_member' using errcode = 'P0001';
  end if;
  new.updated_at := now();
  return new;
end
$$;
create trigger report_automations_before_write before insert or update on public.report_automations
  for each row execute function private.report_automations_before_write();
revoke execute on function private.report_automations_before_write() from public, anon, authenticated;

-- The mails sent, one row per organization, kind (weekly, monthly, revenue, dormant), period and
-- member: recorded before the send and removed when it fails, as private.job_deliveries, but keyed
-- by the period rather than by the run, so runs of two days (a late catch-up and the next morning)
-- or two instances never mail a member twice for one period. Server only.
create table private.report_automation_mails (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  kind text not null check (kind in ('weekly', 'monthly', 'revenue', 'dormant')),
  period date not null,
  user_id uuid not null,
  sent_at timestamptz not null default now(),
  primary key (organization_id, kind, period, user_id)
);
alter table private.report_automation_mails enable row level security;
revoke all on private.report_automation_mails from public, anon, authenticated;
