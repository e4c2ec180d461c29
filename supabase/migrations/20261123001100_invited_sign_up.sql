-- A person who signs up through an organization's invitation joins that organization (the
-- server adds the membership in the same transaction) and gets no organization of their own.
-- The server marks such users with raw_app_meta_data.invited = true; browsers cannot set
-- app metadata.
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  display_name text := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'full_name', '')), '');
begin
  insert into public.profiles (user_id, full_name, email)
  values (new.id, left(display_name, 120), new.email);
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
