-- Verified addresses (docs/decisions/037-verified-addresses.md): one rule decides whether an
-- account may be attached to an address or an organization through that address, "this account
-- verifiably owns this address": its auth.users row carries the address and Supabase's
-- `email_confirmed_at` is set. Locally it is set when a link mailed to the address is used (the
-- verification link, a password reset, an invitation, an email change), or when Google vouches
-- for the address; with Supabase Auth, by Supabase's own confirmation.
--
-- Existing accounts: every account the local adapter made so far was stamped confirmed at
-- creation, and Supabase's are Supabase's, so no row is changed here: they stay verified.

-- The one rule.
create function private.owns_address(account uuid, address text)
returns boolean
language sql stable set search_path = ''
as $$
  select exists (
    select 1 from auth.users u
    where u.id = account and lower(u.email) = lower(btrim(address))
      and u.email_confirmed_at is not null and u.deleted_at is null)
$$;
revoke all on function private.owns_address(uuid, text) from public, anon, authenticated;

-- The pending verification link of an account (local adapter): only its hash, for the address
-- it was sent to (a link for an address the account no longer has verifies nothing). One per
-- account; a new one replaces it.
create table private.email_verifications (
  user_id uuid primary key references auth.users (id) on delete cascade,
  email text not null check (char_length(email) between 3 and 254),
  token_hash text not null unique,
  sent_at timestamptz not null default now()
);

-- The undo of a confirmed email change, mailed to the old address: valid 7 days, single use.
create table private.email_change_reverts (
  token_hash text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  old_email text not null check (char_length(old_email) between 3 and 254),
  new_email text not null check (char_length(new_email) between 3 and 254),
  changed_at timestamptz not null default now()
);
create index email_change_reverts_user_idx on private.email_change_reverts (user_id);
create index email_change_reverts_old_email_idx on private.email_change_reverts (lower(old_email), changed_at);

do $$
declare t text;
begin
  foreach t in array array['email_verifications', 'email_change_reverts']
  loop
    execute format('alter table private.%I enable row level security', t);
    execute format('revoke all on private.%I from public, anon, authenticated', t);
  end loop;
end
$$;

-- An address given up by an email change stays its old owner's while the change can be
-- reverted: no other account may take it (a sign-up, an email change, Google), so the revert
-- link always has an address to give back. Refused as a unique violation, as a taken address is.
create function private.refuse_reserved_address() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.email is not null and exists (
    select 1 from private.email_change_reverts r
    where lower(r.old_email) = lower(new.email) and r.user_id <> new.id and r.changed_at > now() - interval '7 days'
  ) then
    raise exception 'address_reserved' using errcode = '23505';
  end if;
  return new;
end
$$;
revoke execute on function private.refuse_reserved_address() from public, anon, authenticated;
create trigger users_reserved_address before insert or update of email on auth.users
  for each row execute function private.refuse_reserved_address();

-- An existing account takes an invitation: only through the invitation's link, only when it
-- verifiably owns the invited address (private.owns_address), once. Stable codes:
-- invitation_invalid (unknown, used, revoked or expired), invitation_other_address (the account
-- has another address), address_unverified (the account has the address but has not proved it).
-- A member already keeps their role; the invitation is spent.
create function private.join_invitation(invitation_token_hash text, account uuid)
returns table (organization_id uuid, organization_name text)
language plpgsql volatile set search_path = ''
as $$
declare
  inv record;
begin
  select i.id, i.organization_id, i.email, i.role, o.name into inv
  from private.organization_invitations i join public.organizations o on o.id = i.organization_id
  where i.token_hash = invitation_token_hash and i.accepted_at is null and i.expires_at > now()
  for update of i;
  if not found then
    raise exception 'invitation_invalid' using errcode = 'P0001';
  end if;
  if not exists (select 1 from auth.users u where u.id = account and lower(u.email) = lower(inv.email) and u.deleted_at is null) then
    raise exception 'invitation_other_address' using errcode = 'P0001';
  end if;
  if not private.owns_address(account, inv.email) then
    raise exception 'address_unverified' using errcode = 'P0001';
  end if;
  update private.organization_invitations set accepted_at = now() where id = inv.id;
  insert into public.organization_members (organization_id, user_id, role)
  values (inv.organization_id, account, inv.role) on conflict do nothing;
  organization_id := inv.organization_id;
  organization_name := inv.name;
  return next;
end
$$;
revoke all on function private.join_invitation(text, uuid) from public, anon, authenticated;

-- The signed-in shell (20261125001000_signed_in_shell.sql) says too whether the user's address
-- is verified, for the reminder in the shell: still one statement per request.
create or replace function private.signed_in_shell(
  session_token_hash text,
  verified_user uuid,
  chosen_organization uuid,
  idle_limit interval,
  touch_after interval
)
returns jsonb
language plpgsql volatile set search_path = ''
as $$
declare
  uid uuid := verified_user;
  user_email text;
  memberships jsonb;
  current_org uuid;
begin
  if session_token_hash is not null then
    select su.user_id, su.email into uid, user_email
    from private.session_user(session_token_hash, idle_limit, touch_after) su;
  end if;
  if uid is null then
    return null;
  end if;

  select coalesce(jsonb_agg(jsonb_build_object(
      'id', o.id, 'name', o.name, 'slug', o.slug, 'description', o.description, 'role', m.role,
      'gears_owned', o.gears_owned, 'gears_remaining', o.gears_remaining, 'timezone', coalesce(b.timezone, 'UTC'))
      order by m.joined_at, o.id), '[]')
  into memberships
  from public.organization_members m
  join public.organizations o on o.id = m.organization_id
  left join public.booking_settings b on b.organization_id = o.id
  where m.user_id = uid;

  select coalesce(
    (select m.organization_id from public.organization_members m where m.user_id = uid and m.organization_id = chosen_organization),
    (select m.organization_id from public.organization_members m where m.user_id = uid order by m.joined_at, m.organization_id limit 1))
  into current_org;

  return jsonb_build_object(
    'user_id', uid,
    'email', user_email,
    'email_verified', coalesce((select u.email_confirmed_at is not null from auth.users u where u.id = uid), false),
    'memberships', memberships,
    'organization_id', current_org,
    'profile', (select jsonb_build_object('full_name', p.full_name, 'avatar_url', p.avatar_url, 'preferred_language', p.preferred_language)
      from public.profiles p where p.user_id = uid),
    'modules', (select coalesce(jsonb_agg(jsonb_build_object(
        'moduleId', md.id, 'name', md.name, 'icon', md.icon, 'default_visibility', om.default_visibility)
        order by om.activated_at), '[]')
      from public.organization_modules om join public.modules md on md.id = om.module_id
      where om.organization_id = current_org));
end
$$;
revoke all on function private.signed_in_shell(text, uuid, uuid, interval, interval) from public, anon, authenticated;
