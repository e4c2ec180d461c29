-- Measured at 1,000,000 transactions per organization (bench/payments.ts):
-- 1. search_transaction_ids' query switched to a generic plan after five calls on one
--    connection and then scanned every row (~850 ms): the function now always plans with the
--    pattern it is given. (The server also sets this per transaction; either alone suffices.)
-- 2. Sorting the list by description had no index (~210 ms for page 1).
alter function public.search_transaction_ids(uuid, text, integer) set plan_cache_mode = force_custom_plan;

create index transactions_org_description_idx on public.transactions (organization_id, description, id);
