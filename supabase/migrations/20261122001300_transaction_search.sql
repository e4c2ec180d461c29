-- Searching 1,000,000 transactions. Under RLS PostgreSQL will not use a non-leakproof operator
-- such as ilike as an index condition (it must not run before the policy has filtered the
-- rows), so the trigram indexes of the data model are useless to a query made as
-- `authenticated`: the search would scan the whole table. This function checks the caller's
-- membership itself and searches as the owner, where the trigram indexes apply, and returns
-- only ids; the caller's own query then filters, sorts and pages them under RLS as usual:
--   select ... from transactions
--   where organization_id = $org and id in (select public.search_transaction_ids($org, $text))
-- At most max_rows matches (the most recent first, 5,000 at most) come back.
create function public.search_transaction_ids(org_id uuid, search_text text, max_rows integer default 1000)
returns setof uuid
language plpgsql stable security definer set search_path = '' rows 100
as $$
declare
  pattern text;
begin
  perform private.require_member(org_id);
  if search_text is null or btrim(search_text) = '' then
    raise exception 'invalid_search' using errcode = 'P0001';
  end if;
  -- The text is matched literally: % and _ and the escape character lose their meaning.
  pattern := '%' || replace(replace(replace(btrim(search_text), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  return query
    select t.id from public.transactions t
    where t.organization_id = search_transaction_ids.org_id
      and (t.description ilike pattern or t.external_id ilike pattern)
    order by t.date_received desc, t.id desc
    limit least(greatest(coalesce(max_rows, 1000), 1), 5000);
end
$$;
revoke execute on function public.search_transaction_ids(uuid, text, integer) from public, anon, authenticated;
grant execute on function public.search_transaction_ids(uuid, text, integer) to authenticated;
