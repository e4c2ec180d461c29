-- The public booking pages keep their catalogue and busy times for a moment
-- (docs/decisions/024-public-booking-reads.md). Every change to what those pages show NOTIFies
-- channel public_booking_changes, after commit, so every instance of the app forgets what it
-- kept (app/.server/shared-reads.ts listens). Statement-level: one notice per statement
-- whatever the row count, and NOTIFY folds identical notices of one transaction into one. The
-- payload is empty: an instance forgets everything it kept.
create function private.public_booking_notify() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform pg_notify('public_booking_changes', '');
  return null;
end
$$;
revoke execute on function private.public_booking_notify() from public, anon, authenticated;

-- What get_public_organization returns (a new organization: its slug may have been asked for).
create trigger public_booking_notify
  after insert or update of slug, name, logo_url, brand_colors or delete on public.organizations
  for each statement execute function private.public_booking_notify();

-- What get_public_services, get_public_providers, get_public_booking_settings,
-- get_public_busy_ranges and get_public_date_overrides read.
create trigger public_booking_notify
  after insert or update or delete or truncate on public.booking_services
  for each statement execute function private.public_booking_notify();
create trigger public_booking_notify
  after insert or update or delete or truncate on public.booking_providers
  for each statement execute function private.public_booking_notify();
create trigger public_booking_notify
  after insert or update or delete or truncate on public.booking_settings
  for each statement execute function private.public_booking_notify();
create trigger public_booking_notify
  after insert or update or delete or truncate on public.booking_appointments
  for each statement execute function private.public_booking_notify();
create trigger public_booking_notify
  after insert or update or delete or truncate on public.booking_date_overrides
  for each statement execute function private.public_booking_notify();
