-- Supabase Storage for the storage port (docs/decisions/019-supabase-adapters.md): the public
-- buckets `avatars` ({user_id}/avatar.{ext}) and `logos` ({organization_id}/logo.{ext}), at most
-- 2 MB of PNG, JPEG, GIF or WebP each, and their policies.
--
-- Only a Supabase project has the `storage` schema. Everywhere else (a plain PostgreSQL server,
-- the embedded PGlite) this migration does nothing but is recorded as applied like any other:
-- every statement runs through EXECUTE inside a block that first checks for storage.buckets, so
-- nothing here is even parsed against a missing schema. A project created later from these
-- migrations (`supabase db push`) gets the buckets.
--
-- The server writes with the service role key after its own checks (content by magic bytes,
-- size, who may change what). The policies are the second line, for any client holding a user's
-- token: anyone reads (the buckets are public: logos show on the public booking pages), a user
-- writes only under their own id in `avatars`, an owner only under their organization's id in
-- `logos`.
do $$
begin
  if to_regclass('storage.buckets') is null or to_regclass('storage.objects') is null then
    raise notice 'no storage schema (not a Supabase project): storage buckets skipped';
    return;
  end if;

  execute $sql$
    insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
    values
      ('avatars', 'avatars', true, 2097152, array['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
      ('logos', 'logos', true, 2097152, array['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
    on conflict (id) do update set public = excluded.public, file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types
  $sql$;

  execute $sql$
    create policy "avatars: anyone reads" on storage.objects for select
      using (bucket_id = 'avatars')
  $sql$;
  execute $sql$
    create policy "avatars: a user writes their own folder" on storage.objects for insert to authenticated
      with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  $sql$;
  execute $sql$
    create policy "avatars: a user changes their own folder" on storage.objects for update to authenticated
      using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
      with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  $sql$;
  execute $sql$
    create policy "avatars: a user removes from their own folder" on storage.objects for delete to authenticated
      using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  $sql$;

  execute $sql$
    create policy "logos: anyone reads" on storage.objects for select
      using (bucket_id = 'logos')
  $sql$;
  execute $sql$
    create policy "logos: an owner writes their organization's folder" on storage.objects for insert to authenticated
      with check (bucket_id = 'logos' and (storage.foldername(name))[1] in (select public.my_organization_ids('owner')::text))
  $sql$;
  execute $sql$
    create policy "logos: an owner changes their organization's folder" on storage.objects for update to authenticated
      using (bucket_id = 'logos' and (storage.foldername(name))[1] in (select public.my_organization_ids('owner')::text))
      with check (bucket_id = 'logos' and (storage.foldername(name))[1] in (select public.my_organization_ids('owner')::text))
  $sql$;
  execute $sql$
    create policy "logos: an owner removes from their organization's folder" on storage.objects for delete to authenticated
      using (bucket_id = 'logos' and (storage.foldername(name))[1] in (select public.my_organization_ids('owner')::text))
  $sql$;
end
$$;
