-- The language a person signs up in becomes their profile's preferred language, so their
-- mails and a new browser follow it (docs/product.md, Languages and formats). The server
-- passes it as raw_user_meta_data.preferred_language; with Supabase a browser can set user
-- metadata itself, so anything but a supported language is ignored rather than refused.
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  display_name text := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'full_name', '')), '');
  language text := new.raw_user_meta_data ->> 'preferred_language';
begin
  insert into public.profiles (user_id, full_name, email, preferred_language)
  values (
    new.id,
    left(display_name, 120),
    new.email,
    case when language in ('en', 'es', 'pt-BR') then language end
  );
  if coalesce((new.raw_app_meta_data ->> 'invited')::boolean, false) then
    return new;
  end if;
  perform private.create_organization(
    new.id,
    coalesce(display_name, split_part(coalesce(new.email, 'organization'), '@', 1))
  );
  return new;
end
$$;
revoke execute on function public.handle_new_user() from public, anon, authenticated;
