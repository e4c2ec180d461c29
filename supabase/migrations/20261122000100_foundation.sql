-- Foundation: profiles, organizations, memberships and booking settings, with RLS,
-- and the sign-up trigger that creates a user's first organization.

create type public.org_role as enum ('owner', 'administrator', 'manager', 'member');

create table public.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  full_name text check (char_length(full_name) <= 120),
  email text check (char_length(email) <= 254),
  phone text check (char_length(phone) <= 40),
  username text unique check (username ~ '^[A-Za-z0-9_.-]{2,40}$'),
  avatar_url text check (char_length(avatar_url) <= 2048),
  preferred_language text check (preferred_language in ('en', 'es', 'pt-BR')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.organizations (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 63),
  name text not null check (char_length(btrim(name)) between 1 and 120),
  description text check (char_length(description) <= 2000),
  logo_url text check (char_length(logo_url) <= 2048),
  brand_colors jsonb not null default '{"primary": "#2563eb", "secondary": "#64748b"}'::jsonb
    check (
      jsonb_typeof(brand_colors) = 'object'
      and brand_colors ->> 'primary' ~ '^#[0-9a-fA-F]{6}$'
      and brand_colors ->> 'secondary' ~ '^#[0-9a-fA-F]{6}$'
    ),
  gears_owned integer not null default 0 check (gears_owned >= 0),
  gears_remaining integer not null default 0 check (gears_remaining >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.organization_members (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.org_role not null default 'member',
  joined_at timestamptz not null default now(),
  primary key (organization_id, user_id)
);
create index organization_members_user_idx on public.organization_members (user_id, joined_at);
create index organization_members_org_role_idx on public.organization_members (organization_id, role);

create table public.booking_settings (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  min_advance_hours integer not null default 1 check (min_advance_hours >= 0),
  max_advance_days integer not null default 30 check (max_advance_days >= 1),
  buffer_minutes integer not null default 0 check (buffer_minutes >= 0),
  auto_confirm boolean not null default true,
  allow_guest_booking boolean not null default true,
  require_phone boolean not null default false,
  cancellation_hours integer not null default 24 check (cancellation_hours >= 0),
  timezone text not null default 'UTC' check (timezone in (
    'UTC', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles',
    'Europe/London', 'Europe/Paris', 'Asia/Tokyo', 'Australia/Sydney'
  )),
  business_hours jsonb not null default '{
    "monday":    {"start": "09:00", "end": "17:00", "enabled": true},
    "tuesday":   {"start": "09:00", "end": "17:00", "enabled": true},
    "wednesday": {"start": "09:00", "end": "17:00", "enabled": true},
    "thursday":  {"start": "09:00", "end": "17:00", "enabled": true},
    "friday":    {"start": "09:00", "end": "17:00", "enabled": true},
    "saturday":  {"start": "09:00", "end": "17:00", "enabled": false},
    "sunday":    {"start": "09:00", "end": "17:00", "enabled": false}
  }'::jsonb check (jsonb_typeof(business_hours) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Membership helpers. Security definer so that policies on organization_members itself
-- do not recurse; they read only the caller's own memberships.
create function public.is_member(org uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.organization_members m
    where m.organization_id = org and m.user_id = (select auth.uid())
  )
$$;

create function public.has_role(org uuid, roles public.org_role[]) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.organization_members m
    where m.organization_id = org and m.user_id = (select auth.uid()) and m.role = any (roles)
  )
$$;

create function public.is_co_member(other_user uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1
    from public.organization_members mine
    join public.organization_members theirs on theirs.organization_id = mine.organization_id
    where mine.user_id = (select auth.uid()) and theirs.user_id = other_user
  )
$$;

revoke execute on function public.is_member(uuid), public.has_role(uuid, public.org_role[]),
  public.is_co_member(uuid) from public, anon, authenticated;
grant execute on function public.is_member(uuid), public.has_role(uuid, public.org_role[]),
  public.is_co_member(uuid) to authenticated;

create function public.touch_updated_at() returns trigger
language plpgsql set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

create trigger profiles_touch before update on public.profiles
  for each row execute function public.touch_updated_at();
create trigger organizations_touch before update on public.organizations
  for each row execute function public.touch_updated_at();
create trigger booking_settings_touch before update on public.booking_settings
  for each row execute function public.touch_updated_at();

-- RLS: one policy per operation and role. What is not granted is refused.
alter table public.profiles enable row level security;
alter table public.organizations enable row level security;
alter table public.organization_members enable row level security;
alter table public.booking_settings enable row level security;

revoke all on public.profiles, public.organizations, public.organization_members,
  public.booking_settings from anon, authenticated;

grant select on public.profiles to authenticated;
grant update (full_name, email, phone, username, avatar_url, preferred_language)
  on public.profiles to authenticated;
create policy "profiles: a user reads their own profile and co-members' profiles"
  on public.profiles for select to authenticated
  using (user_id = (select auth.uid()) or public.is_co_member(user_id));
create policy "profiles: a user updates their own profile"
  on public.profiles for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

grant select on public.organizations to authenticated;
grant update (name, description, logo_url, brand_colors) on public.organizations to authenticated;
create policy "organizations: members read their organizations"
  on public.organizations for select to authenticated
  using (public.is_member(id));
create policy "organizations: owners update their organization"
  on public.organizations for update to authenticated
  using (public.has_role(id, array['owner']::public.org_role[]))
  with check (public.has_role(id, array['owner']::public.org_role[]));

grant select on public.organization_members to authenticated;
create policy "organization_members: members read their organization's members"
  on public.organization_members for select to authenticated
  using (public.is_member(organization_id));

grant select on public.booking_settings to authenticated;
grant update (min_advance_hours, max_advance_days, buffer_minutes, auto_confirm,
  allow_guest_booking, require_phone, cancellation_hours, timezone, business_hours)
  on public.booking_settings to authenticated;
create policy "booking_settings: members read their organization's settings"
  on public.booking_settings for select to authenticated
  using (public.is_member(organization_id));
create policy "booking_settings: members update their organization's settings"
  on public.booking_settings for update to authenticated
  using (public.is_member(organization_id))
  with check (public.is_member(organization_id));

-- Organizations are created only here: unique slug, starting gears, booking settings and
-- the owner membership, in the caller's transaction.
create schema if not exists private;
revoke all on schema private from public;

create function private.slugify(input text) returns text
language sql immutable set search_path = ''
as $$
  select coalesce(nullif(left(btrim(regexp_replace(lower(translate(coalesce(input, ''),
    'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñ',
    'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNn')), '[^a-z0-9]+', '-', 'g'), '-'), 48), ''), 'org')
$$;

create function private.create_organization(owner_id uuid, org_name text) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  base text := btrim(private.slugify(org_name), '-');
  candidate text := base;
  org_id uuid;
  starting_gears constant integer := 15000; -- the preselected Professional plan's allowance
begin
  loop
    begin
      insert into public.organizations (slug, name, gears_owned, gears_remaining)
      values (candidate, btrim(org_name), starting_gears, starting_gears)
      returning id into org_id;
      exit;
    exception when unique_violation then
      candidate := base || '-' || substr(md5(random()::text), 1, 5);
    end;
  end loop;
  insert into public.booking_settings (organization_id) values (org_id);
  insert into public.organization_members (organization_id, user_id, role)
  values (org_id, owner_id, 'owner');
  return org_id;
end
$$;

create function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  display_name text := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'full_name', '')), '');
begin
  insert into public.profiles (user_id, full_name, email)
  values (new.id, left(display_name, 120), new.email);
  perform private.create_organization(
    new.id,
    coalesce(display_name, split_part(coalesce(new.email, 'organization'), '@', 1))
  );
  return new;
end
$$;

revoke execute on function public.handle_new_user(), public.touch_updated_at()
  from public, anon, authenticated;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

-- Onboarding: a signed-in user with no organization creates one.
create function public.create_organization(org_name text) returns uuid
language plpgsql security definer set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = 'P0001';
  end if;
  if org_name is null or char_length(btrim(org_name)) not between 1 and 120 then
    raise exception 'invalid_name' using errcode = 'P0001';
  end if;
  return private.create_organization((select auth.uid()), org_name);
end
$$;
revoke execute on function public.create_organization(text) from public, anon, authenticated;
grant execute on function public.create_organization(text) to authenticated;
