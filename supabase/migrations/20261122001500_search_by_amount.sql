-- Amount search at a million rows: numeric equality is not leakproof, so under RLS
-- `amount = x` cannot use the (organization_id, amount, id) index and reads every row of the
-- organization (~140 ms at 1,000,000). Like search_transaction_ids, this function checks the
-- caller's membership itself, searches as the owner through the index, and returns only ids,
-- which the caller filters, sorts and pages under RLS.
create function public.transaction_ids_by_amount(org_id uuid, search_amount numeric, max_rows integer default 1000)
returns setof uuid
language plpgsql stable security definer
set search_path = '' set plan_cache_mode = force_custom_plan
rows 10
as $$
begin
  perform private.require_member(org_id);
  return query
    select t.id from public.transactions t
    where t.organization_id = transaction_ids_by_amount.org_id and t.amount = search_amount
    order by t.date_received desc, t.id desc
    limit least(greatest(coalesce(max_rows, 1000), 1), 5000);
end
$$;
revoke execute on function public.transaction_ids_by_amount(uuid, numeric, integer) from public, anon, authenticated;
grant execute on function public.transaction_ids_by_amount(uuid, numeric, integer) to authenticated;
