-- An organization's timezone ("today", report ranges, new rows, booking times) was one of nine
-- zones, none of them in Latin America, where most of our Spanish and Portuguese readers work.
-- It is now one of the zones the public booking page offers (app/lib/timezones.ts), kept equal
-- to that list by tests/db/settings.test.ts.
alter table public.booking_settings drop constraint booking_settings_timezone_check;
alter table public.booking_settings add constraint booking_settings_timezone_check check (timezone in (
  'UTC', 'Pacific/Honolulu', 'America/Anchorage', 'America/Los_Angeles', 'America/Denver',
  'America/Phoenix', 'America/Chicago', 'America/Mexico_City', 'America/New_York',
  'America/Bogota', 'America/Lima', 'America/Caracas', 'America/Halifax', 'America/Santiago',
  'America/Argentina/Buenos_Aires', 'America/Sao_Paulo', 'Atlantic/Azores', 'Europe/London',
  'Europe/Lisbon', 'Europe/Madrid', 'Europe/Paris', 'Europe/Berlin', 'Europe/Athens',
  'Europe/Istanbul', 'Europe/Moscow', 'Africa/Lagos', 'Africa/Cairo', 'Africa/Johannesburg',
  'Asia/Dubai', 'Asia/Karachi', 'Asia/Kolkata', 'Asia/Dhaka', 'Asia/Bangkok', 'Asia/Singapore',
  'Asia/Shanghai', 'Asia/Manila', 'Asia/Tokyo', 'Asia/Seoul', 'Australia/Perth',
  'Australia/Adelaide', 'Australia/Sydney', 'Pacific/Auckland'
));
