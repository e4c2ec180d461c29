-- Live refresh of the staff calendar (docs/product.md, Booking): every new appointment and
-- every change of one's time or status NOTIFies channel booking_changes with the organization's
-- id, after commit (app/.server/booking-events.ts listens). The payload carries no guest data.
create function private.booking_appointments_notify() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform pg_notify('booking_changes', new.organization_id::text);
  return null;
end
$$;
revoke execute on function private.booking_appointments_notify() from public, anon, authenticated;

create trigger booking_appointments_notify
  after insert or update of status, starts_at, ends_at, provider_id, service_id, guest_name
  on public.booking_appointments
  for each row execute function private.booking_appointments_notify();
