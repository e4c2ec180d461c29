-- The foundation's brand_colors check tests each colour with a regex, which is NULL (and so
-- passes) when the key is missing. Both colours are required: the public booking page paints
-- its buttons with the primary one.
alter table public.organizations add constraint organizations_brand_colors_keys
  check (brand_colors ?& array['primary', 'secondary']);
