-- Searches find client names and companies blind to case and accents (docs/product.md, Clients),
-- comparing name_sort_key() of both sides. A search reads every client of the organization
-- (under RLS, like cannot use an index: docs/decisions/006-search-under-rls.md), and calling
-- the function on each row cost about 60 ms at 10,000 clients. The keys are kept with the row.
alter table public.clients
  add column name_key text generated always as (public.name_sort_key(name)) stored,
  add column company_key text generated always as (public.name_sort_key(company)) stored;
