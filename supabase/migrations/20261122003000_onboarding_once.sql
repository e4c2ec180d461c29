-- Onboarding creates an organization only for a user who belongs to none. Before this, the
-- function checked nothing of the kind, so posting the onboarding form again and again made a
-- new organization (with its starting gears) each time. A per-user transaction lock makes two
-- concurrent posts wait for each other, so the second sees the first one's membership.
create or replace function public.create_organization(org_name text) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
begin
  if caller is null then
    raise exception 'not_authenticated' using errcode = 'P0001';
  end if;
  if org_name is null or char_length(btrim(org_name)) not between 1 and 120 then
    raise exception 'invalid_name' using errcode = 'P0001';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('create_organization:' || caller::text, 0));
  if exists (select 1 from public.organization_members m where m.user_id = caller) then
    raise exception 'already_member' using errcode = 'P0001';
  end if;
  return private.create_organization(caller, org_name);
end
$$;
revoke execute on function public.create_organization(text) from public, anon, authenticated;
grant execute on function public.create_organization(text) to authenticated;
