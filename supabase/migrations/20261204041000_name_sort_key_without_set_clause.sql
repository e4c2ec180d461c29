-- public.name_sort_key without its SET clause (bench/README.md, imports.ts): every name in it is
-- schema-qualified, so it needs none, and a SET clause makes each call save and restore the
-- search path around it. It computes the generated description_key of every transaction a
-- commit inserts (and name_key and company_key of every client written): in the profile of a
-- 100,000-row import's commit those calls were about 6 % of its time. Same body, same results,
-- so the indexes and stored columns built on it stay valid. It stays a SQL function of its own
-- (not inlined: it is immutable and unaccent is only stable), as public.payer_key is
-- (docs/decisions/016-imports.md).
create or replace function public.name_sort_key(value text) returns text
language sql immutable strict parallel safe
as $$
  select pg_catalog.lower(extensions.unaccent('extensions.unaccent'::pg_catalog.regdictionary, value))
$$;
