-- Names sort the way a reader expects: case and accents do not split "Ángela", "angela" and
-- "Angela" apart, and "Émile" comes with the E's (docs/product.md, Clients). ICU collations
-- are not available on the embedded database, so the key is lower case without accents.
create extension if not exists unaccent with schema extensions;

-- unaccent() is only stable (its dictionary could change); naming the dictionary makes the
-- result depend on the text alone, which is what an index or an ORDER BY needs.
create function public.name_sort_key(value text) returns text
language sql immutable strict parallel safe set search_path = ''
as $$
  select lower(extensions.unaccent('extensions.unaccent'::regdictionary, value))
$$;

revoke execute on function public.name_sort_key(text) from public, anon, authenticated;
grant execute on function public.name_sort_key(text) to authenticated, service_role;

create index clients_org_name_sort_idx on public.clients (organization_id, public.name_sort_key(name), id);
