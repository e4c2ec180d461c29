-- The transactions' search finds descriptions blind to case and accents, as it finds client
-- names (docs/decisions/006-search-under-rls.md): "cafe" finds "Café da manhã", "reunion"
-- finds "Reunión". The key is kept with the row, and the trigram index moves from the
-- description to its key. External ids are codes (ZL-1234): ilike, as before.
alter table public.transactions
  add column description_key text generated always as (public.name_sort_key(description)) stored;

drop index public.transactions_description_trgm_idx;
create index transactions_description_key_trgm_idx on public.transactions using gin (description_key extensions.gin_trgm_ops);

create or replace function public.search_transaction_ids(org_id uuid, search_text text, max_rows integer default 1000)
returns setof uuid
language plpgsql stable security definer set search_path = '' rows 100
set plan_cache_mode = force_custom_plan
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
      and (t.description_key like public.name_sort_key(pattern) or t.external_id ilike pattern)
    order by t.date_received desc, t.id desc
    limit least(greatest(coalesce(max_rows, 1000), 1), 5000);
end
$$;
