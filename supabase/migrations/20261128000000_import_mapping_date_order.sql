-- A generic CSV mapping says how the file writes its dates: month first (03/04/2026 is March 4,
-- as in the United States) or day first (3 April, as Excel writes them in Spanish and
-- Portuguese). Mappings saved before keep month first, which is how every file was read.
alter table public.import_mappings
  add column date_order text not null default 'mdy' check (date_order in ('mdy', 'dmy'));
grant insert (date_order), update (date_order) on public.import_mappings to authenticated;
