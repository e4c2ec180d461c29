-- public.my_organization_ids in PL/pgSQL (docs/decisions/025-fewer-statements-per-page.md).
--
-- Every policy of an organization-scoped table calls it once per statement. As a SQL function
-- that cannot be inlined (security definer, its own search_path), PostgreSQL parsed and planned
-- its body again on every call, that is on every statement of every signed-in page. PL/pgSQL
-- keeps the plan of its query for the session. Same signature, same rows, same privileges:
-- the policies and tests/db/rls-matrix.test.ts do not change. On the embedded database a
-- statement under RLS costs about 120 µs less.
create or replace function public.my_organization_ids(with_role public.org_role default null) returns setof uuid
language plpgsql stable security definer set search_path = '' rows 10
as $$
begin
  return query
    select m.organization_id
    from public.organization_members m
    where m.user_id = (select auth.uid())
      and (with_role is null or m.role = with_role);
end
$$;
