-- Time zones end to end (docs/product.md, Public booking and Sign-up):
--
-- 1. get_public_booking also returns the zone and language the visitor booked in
--    (booking_appointments.guest_timezone, guest_language), so the booked page, the manage view
--    and the mails sent from them show the visitor's time (and the business's when it differs).
-- 2. A new organization takes the zone its owner's browser reported at sign-up
--    (raw_user_meta_data.timezone, set by the server from the sign-up form). As with the language,
--    a browser can set user metadata itself with Supabase, so a zone outside the organizations'
--    list (the check on booking_settings.timezone) is ignored, never refused: the organization
--    then starts in UTC, changeable in Settings › Organization.

drop function public.get_public_booking(text);
create function public.get_public_booking(token text)
returns table (id uuid, status public.appointment_status, starts_at timestamptz, ends_at timestamptz,
  appointment_date date, start_time time, end_time time, timezone text, service_name text,
  duration_minutes integer, provider_name text, guest_name text, guest_email text,
  guest_phone text, notes text, total_price numeric, organization_name text,
  organization_slug text, cancellable_until timestamptz, organization_id uuid, service_id uuid,
  provider_id uuid, revision integer, guest_timezone text, guest_language text)
language sql stable security definer set search_path = ''
as $$
  select a.id, a.status, a.starts_at, a.ends_at, a.appointment_date, a.start_time, a.end_time,
    s.timezone, svc.name, svc.duration_minutes, p.display_name, a.guest_name, a.guest_email,
    a.guest_phone, a.notes, a.total_price, o.name, o.slug,
    a.starts_at - make_interval(hours => s.cancellation_hours),
    a.organization_id, a.service_id, a.provider_id,
    least(2147483647, greatest(0, floor(extract(epoch from a.updated_at - a.created_at) * 10)))::integer,
    a.guest_timezone, a.guest_language
  from public.booking_appointments a
  join public.organizations o on o.id = a.organization_id
  join public.booking_settings s on s.organization_id = a.organization_id
  left join public.booking_services svc on svc.id = a.service_id
  left join public.booking_providers p on p.id = a.provider_id
  where token ~ '^[0-9a-f]{64}$'
    and a.manage_token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex')
$$;
revoke execute on function public.get_public_booking(text) from public, anon, authenticated;
grant execute on function public.get_public_booking(text) to anon;

create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  display_name text := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'full_name', '')), '');
  language text := new.raw_user_meta_data ->> 'preferred_language';
  zone text := left(new.raw_user_meta_data ->> 'timezone', 64);
  org_id uuid;
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
  org_id := private.create_organization(
    new.id,
    coalesce(display_name, split_part(coalesce(new.email, 'organization'), '@', 1))
  );
  if zone is not null and zone <> 'UTC' then
    begin
      update public.booking_settings set timezone = zone where organization_id = org_id;
    exception when check_violation then
      null; -- not one of the organizations' zones: UTC stays
    end;
  end if;
  return new;
end
$$;
revoke execute on function public.handle_new_user() from public, anon, authenticated;
