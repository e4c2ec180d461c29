-- The signed-in shell in one statement (docs/decisions/023-fewer-round-trips.md): what every
-- request under /app reads first, which was seven statements (begin; the session; the role;
-- the memberships; the profile; the modules; commit). The server's owner connection only.

-- The local adapter's session rule (auth.sessions, supabase/local), the one place it lives: the
-- user of a session token's hash, or no row when it is unknown, past not_after, or idle longer
-- than idle_limit (an expired session is deleted); a session last touched longer ago than
-- touch_after is touched (the sliding idle expiry).
create function private.session_user(session_token_hash text, idle_limit interval, touch_after interval)
returns table (user_id uuid, email text)
language plpgsql volatile set search_path = ''
as $$
declare
  s record;
begin
  select ss.id, ss.updated_at, ss.not_after, u.id as uid, u.email as user_email into s
  from auth.sessions ss join auth.users u on u.id = ss.user_id
  where ss.token_hash = session_token_hash and u.deleted_at is null;
  if not found then
    return;
  end if;
  if now() > s.not_after or now() > s.updated_at + idle_limit then
    delete from auth.sessions where id = s.id;
    return;
  end if;
  if now() - s.updated_at > touch_after then
    update auth.sessions set updated_at = now() where id = s.id;
  end if;
  user_id := s.uid;
  email := s.user_email;
  return next;
end
$$;
revoke all on function private.session_user(text, interval, interval) from public, anon, authenticated;

-- session_token_hash (with idle_limit, touch_after): a local session, as private.session_user.
-- verified_user: instead, a user whose identity the caller verified (the Supabase adapter's
--   signed claims).
-- chosen_organization: the organization cookie's choice; the first membership (by joined_at)
--   when the user is not a member of it.
--
-- Returns null without a user; else the user, their memberships (each with its booking
-- timezone), their profile, and the chosen organization's activated modules with their
-- visibility (the app filters them by role, app/.server/modules.ts). Everything is the user's
-- own: no RLS is needed to scope it, as in the membership functions of the data model.
create function private.signed_in_shell(
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
