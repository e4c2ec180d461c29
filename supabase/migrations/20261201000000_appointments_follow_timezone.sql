-- An appointment's local date and times (appointment_date, start_time, end_time) are derived
-- from its instants in the organization's timezone when it is written. They were never derived
-- again when the timezone changed, so the calendar, its week counts and the analytics showed
-- the old wall-clock times while mails and the public page showed the true ones. A change of
-- timezone now derives them again for every appointment of the organization.

-- Deriving again is not a change of the appointment: updated_at (the analytics' "changed"
-- activity) moves only when something other than the derived columns changes.
create function private.booking_appointments_touch() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if to_jsonb(new) - array['appointment_date', 'start_time', 'end_time', 'buffer_ends_at', 'updated_at']
     is distinct from to_jsonb(old) - array['appointment_date', 'start_time', 'end_time', 'buffer_ends_at', 'updated_at'] then
    new.updated_at := now();
  end if;
  return new;
end
$$;
revoke execute on function private.booking_appointments_touch() from public, anon, authenticated;
drop trigger booking_appointments_touch on public.booking_appointments;
create trigger booking_appointments_touch before update on public.booking_appointments
  for each row execute function private.booking_appointments_touch();

create function private.booking_settings_timezone_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  -- The derive trigger reads the timezone now in force and sets the local columns.
  update public.booking_appointments a
  set appointment_date = (a.starts_at at time zone new.timezone)::date
  where a.organization_id = new.organization_id;
  return null;
end
$$;
revoke execute on function private.booking_settings_timezone_changed() from public, anon, authenticated;
create trigger booking_settings_timezone_changed after update of timezone on public.booking_settings
  for each row when (old.timezone is distinct from new.timezone)
  execute function private.booking_settings_timezone_changed();

-- Appointments of organizations that changed their timezone before this migration.
update public.booking_appointments a
set appointment_date = (a.starts_at at time zone coalesce(s.timezone, 'UTC'))::date
from public.booking_settings s
where s.organization_id = a.organization_id
  and (a.appointment_date, a.start_time, a.end_time) is distinct from (
    (a.starts_at at time zone s.timezone)::date, (a.starts_at at time zone s.timezone)::time, (a.ends_at at time zone s.timezone)::time);
