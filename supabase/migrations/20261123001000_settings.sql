-- Settings (docs/product.md, Settings; docs/decisions/014-settings-storage-and-notifications.md):
-- notification preferences, pending email changes, invitations, and the scheduler's record of
-- what it ran. Only the server's owner connection uses these tables (each call checks the
-- member and role first): no grants to anon or authenticated, and RLS on with no policy.

-- One row per user and organization once the user saves a toggle; without a row the defaults
-- apply (email notifications and transaction alerts on, weekly reports off).
create table private.notification_preferences (
  user_id uuid not null references auth.users (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  email_notifications boolean not null default true,
  transaction_alerts boolean not null default true,
  weekly_reports boolean not null default false,
  updated_at timestamptz not null default now(),
  primary key (user_id, organization_id)
);
create index notification_preferences_org_idx on private.notification_preferences (organization_id);

-- A requested email change: the address changes only when the link (whose hash is stored)
-- is opened within a day. One pending change per user; a new request replaces it.
create table private.email_changes (
  user_id uuid primary key references auth.users (id) on delete cascade,
  new_email text not null check (char_length(new_email) between 3 and 254),
  token_hash text not null unique,
  requested_at timestamptz not null default now()
);

-- An invitation of an address that has no account yet: a single-use link valid 7 days that
-- signs the person up straight into the organization with the role chosen.
create table private.organization_invitations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  email text not null check (char_length(email) between 3 and 254),
  role public.org_role not null default 'member',
  token_hash text not null unique,
  invited_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz
);
create unique index organization_invitations_pending_idx on private.organization_invitations (organization_id, lower(email))
  where accepted_at is null;

-- The scheduler's record: one row per job occurrence (job name + run key, e.g. the week and
-- the organization) and one per mail sent in it, so that neither a restart nor a second
-- server instance ever sends the same mail twice.
create table private.job_runs (
  job text not null check (char_length(job) between 1 and 80),
  run_key text not null check (char_length(run_key) between 1 and 200),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  primary key (job, run_key)
);

create table private.job_deliveries (
  job text not null,
  run_key text not null,
  recipient text not null check (char_length(recipient) between 1 and 254),
  sent_at timestamptz not null default now(),
  primary key (job, run_key, recipient),
  foreign key (job, run_key) references private.job_runs (job, run_key) on delete cascade
);

-- Old slugs of an organization, kept 90 days so that shared booking links keep working.
create table private.organization_slug_redirects (
  old_slug text primary key check (old_slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  changed_at timestamptz not null default now()
);

do $$
declare t text;
begin
  foreach t in array array['notification_preferences', 'email_changes', 'organization_invitations',
    'job_runs', 'job_deliveries', 'organization_slug_redirects']
  loop
    execute format('alter table private.%I enable row level security', t);
    execute format('revoke all on private.%I from public, anon, authenticated', t);
  end loop;
end
$$;

-- The current slug for an old one changed in the last 90 days (the public booking page
-- redirects with it); null when the slug was never one or is too old.
create function public.resolve_old_slug(org_slug text) returns text
language sql stable security definer set search_path = ''
as $$
  select o.slug from private.organization_slug_redirects r
  join public.organizations o on o.id = r.organization_id
  where r.old_slug = org_slug and r.changed_at > now() - interval '90 days'
$$;
revoke execute on function public.resolve_old_slug(text) from public;
grant execute on function public.resolve_old_slug(text) to anon, authenticated;

-- Owners change the slug (the booking link): the old one is kept for 90 days. Refused with
-- slug_invalid, or slug_taken when another organization holds it now or held it lately.
create function public.update_organization_slug(org_id uuid, new_slug text) returns void
language plpgsql security definer set search_path = ''
as $$
declare old text;
begin
  perform private.require_owner(org_id);
  if new_slug is null or new_slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' or char_length(new_slug) > 63 then
    raise exception 'slug_invalid' using errcode = 'P0001';
  end if;
  select o.slug into old from public.organizations o where o.id = org_id for update;
  if old = new_slug then return; end if;
  if exists (select 1 from public.organizations o where o.slug = new_slug)
     or exists (select 1 from private.organization_slug_redirects r
                where r.old_slug = new_slug and r.organization_id <> org_id
                  and r.changed_at > now() - interval '90 days') then
    raise exception 'slug_taken' using errcode = 'P0001';
  end if;
  delete from private.organization_slug_redirects r where r.old_slug in (new_slug, old);
  insert into private.organization_slug_redirects (old_slug, organization_id) values (old, org_id);
  update public.organizations o set slug = new_slug where o.id = org_id;
end
$$;
revoke execute on function public.update_organization_slug(uuid, text) from public, anon;
grant execute on function public.update_organization_slug(uuid, text) to authenticated;
