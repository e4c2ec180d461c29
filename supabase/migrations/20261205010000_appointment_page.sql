-- The appointment page and clients from bookings (docs/product.md, Booking: The appointment page,
-- Clients from bookings):
--
-- 1. Walk-ins: staff may book without an e-mail. private.check_booking, as in
--    20261122005000_booking_staff.sql, lets the staff path (p_staff) leave it empty; the public
--    page (create_booking, reschedule_booking) still requires a valid one. staff_create_booking
--    stores an empty e-mail as null (booking_appointments.guest_email is nullable since
--    20261205000000_booked_and_paid.sql; the client link trigger then goes by phone, or makes a
--    new client).
-- 2. staff_move_booking: a member moves an appointment to another start and provider, with the
--    checks of a staff booking (private.check_booking) and the no-overlap constraint
--    (slot_taken). The history trigger writes the move; a change of provider alone is written here.
-- 3. merge_clients: two clients of one organization become one. The merged client's payments,
--    appointments, expectations, payer names and staged import rows go to the kept client, whose
--    empty contact fields take the merged one's; then the merged client is deleted.
-- 4. booking_appointments_touch, as in 20261201000000_appointments_follow_timezone.sql: the
--    client an appointment belongs to is derived (by the link trigger, or a merge); relinking it is
--    not a change of the appointment (the analytics' "changed" activity, the calendar revision).

-- 1 -------------------------------------------------------------------------------------------

create or replace function private.check_booking(
  p_organization_id uuid, p_service_id uuid, p_provider_id uuid, p_starts_at timestamptz,
  p_guest_name text, p_guest_email text, p_guest_phone text, p_notes text, p_staff boolean,
  out o_end_at timestamptz, out o_price numeric, out o_settings public.booking_settings
)
language plpgsql security definer set search_path = ''
as $$
declare
  service record;
  provider record;
  guest_name text := btrim(coalesce(p_guest_name, ''));
  guest_email text := btrim(coalesce(p_guest_email, ''));
  guest_phone text := nullif(btrim(coalesce(p_guest_phone, '')), '');
  notes text := nullif(btrim(coalesce(p_notes, '')), '');
  local_start timestamp;
  local_end timestamp;
  refusal text;
  notice interval;
begin
  select * into o_settings from public.booking_settings s where s.organization_id = p_organization_id;
  if not found then
    raise exception 'organization_not_found' using errcode = 'P0001';
  end if;
  select s.id, s.price, s.duration_minutes into service
  from public.booking_services s
  where s.id = p_service_id and s.organization_id = p_organization_id and s.is_active;
  if not found then
    raise exception 'service_unavailable' using errcode = 'P0001';
  end if;
  select p.id, p.business_hours into provider
  from public.booking_providers p
  where p.id = p_provider_id and p.organization_id = p_organization_id and p.is_active
  for no key update;
  if not found then
    raise exception 'provider_unavailable' using errcode = 'P0001';
  end if;

  if char_length(guest_name) not between 1 and 120 then
    raise exception 'invalid_guest_name' using errcode = 'P0001';
  end if;
  -- A walk-in booked by staff may have no e-mail; a visitor always gives one.
  if not (p_staff and guest_email = '') and not public.is_valid_email(guest_email) then
    raise exception 'invalid_guest_email' using errcode = 'P0001';
  end if;
  if o_settings.require_phone and guest_phone is null then
    raise exception 'phone_required' using errcode = 'P0001';
  end if;
  if char_length(guest_phone) > 40 then
    raise exception 'invalid_guest_phone' using errcode = 'P0001';
  end if;
  if char_length(notes) > 2000 then
    raise exception 'invalid_notes' using errcode = 'P0001';
  end if;

  if p_starts_at is null then
    raise exception 'invalid_start' using errcode = 'P0001';
  end if;
  notice := make_interval(hours => o_settings.min_advance_hours);
  if p_staff then
    notice := interval '0';
  end if;
  if p_starts_at < now() + notice then
    raise exception 'too_soon' using errcode = 'P0001';
  end if;
  if p_starts_at > now() + make_interval(days => o_settings.max_advance_days) then
    raise exception 'too_far_ahead' using errcode = 'P0001';
  end if;
  o_end_at := p_starts_at + make_interval(mins => service.duration_minutes);
  o_price := service.price;
  local_start := p_starts_at at time zone o_settings.timezone;
  local_end := o_end_at at time zone o_settings.timezone;
  refusal := private.booking_hours_refusal(p_organization_id, null, o_settings.business_hours, local_start, local_end);
  if refusal = 'closed' then
    raise exception 'closed_that_day' using errcode = 'P0001';
  elsif refusal is not null then
    raise exception 'outside_business_hours' using errcode = 'P0001';
  end if;
  refusal := private.booking_hours_refusal(p_organization_id, p_provider_id, provider.business_hours, local_start, local_end);
  if refusal = 'closed' then
    raise exception 'provider_day_off' using errcode = 'P0001';
  elsif refusal is not null then
    raise exception 'outside_provider_hours' using errcode = 'P0001';
  end if;
end
$$;

-- As in 20261122005000_booking_staff.sql, except that an empty e-mail is stored as null.
create or replace function public.staff_create_booking(
  p_organization_id uuid, p_service_id uuid, p_provider_id uuid, p_starts_at timestamptz,
  p_guest_name text, p_guest_email text, p_guest_phone text default null, p_notes text default null
) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  checked record;
  new_id uuid;
begin
  perform private.require_member(p_organization_id);
  select * into checked from private.check_booking(p_organization_id, p_service_id, p_provider_id,
    p_starts_at, p_guest_name, p_guest_email, p_guest_phone, p_notes, true);
  begin
    insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at,
      ends_at, status, guest_name, guest_email, guest_phone, notes, total_price)
    values (p_organization_id, p_service_id, p_provider_id, p_starts_at, checked.o_end_at, 'confirmed',
      btrim(p_guest_name), nullif(btrim(coalesce(p_guest_email, '')), ''), nullif(btrim(coalesce(p_guest_phone, '')), ''),
      nullif(btrim(coalesce(p_notes, '')), ''), checked.o_price)
    returning id into new_id;
  exception when exclusion_violation then
    raise exception 'slot_taken' using errcode = 'P0001';
  end;
  return new_id;
end
$$;

-- 2 -------------------------------------------------------------------------------------------

-- A member moves an appointment of the organization to a new start and provider, in one
-- statement (the old slot is freed only when the new one is taken). Refusals: not_found (not an
-- appointment of this organization), not_movable (cancelled, completed or a no-show),
-- service_unavailable, every refusal of a staff booking (private.check_booking: hours, date
-- overrides, how far ahead, in the past), slot_taken. The row keeps its id, client, service,
-- price, status and deposit. Returns its new local date.
create function public.staff_move_booking(
  p_organization_id uuid, p_appointment_id uuid, p_provider_id uuid, p_starts_at timestamptz
) returns date
language plpgsql security definer set search_path = ''
as $$
declare
  booking public.booking_appointments;
  checked record;
  moved public.booking_appointments;
  event_id bigint;
begin
  perform private.require_member(p_organization_id);
  select a.* into booking from public.booking_appointments a
  where a.id = p_appointment_id and a.organization_id = p_organization_id
  for update of a;
  if not found then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  if booking.status not in ('pending', 'confirmed') then
    raise exception 'not_movable' using errcode = 'P0001';
  end if;
  if booking.service_id is null then
    raise exception 'service_unavailable' using errcode = 'P0001';
  end if;
  select * into checked from private.check_booking(p_organization_id, booking.service_id, p_provider_id,
    p_starts_at, booking.guest_name, booking.guest_email, booking.guest_phone, booking.notes, true);
  begin
    update public.booking_appointments a
    set provider_id = p_provider_id, starts_at = p_starts_at, ends_at = checked.o_end_at
    where a.id = booking.id
    returning a.* into moved;
  exception when exclusion_violation then
    raise exception 'slot_taken' using errcode = 'P0001';
  end;
  -- The history: the trigger wrote the new start (20261205001000_matching_engine.sql); the
  -- provider goes with it, or makes a 'moved' event of its own when only the provider changed.
  if moved.provider_id is distinct from booking.provider_id then
    select max(e.id) into event_id from public.booking_appointment_events e
    where e.appointment_id = moved.id and e.kind = 'moved' and moved.starts_at is distinct from booking.starts_at;
    if event_id is null then
      insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail, actor_id)
      values (moved.organization_id, moved.id, 'moved', jsonb_build_object('from', booking.starts_at, 'to', moved.starts_at), auth.uid())
      returning id into event_id;
    end if;
    update public.booking_appointment_events
    set detail = detail || jsonb_build_object('provider_from', booking.provider_id, 'provider_to', moved.provider_id)
    where id = event_id;
  end if;
  return moved.appointment_date;
end
$$;

-- 3 -------------------------------------------------------------------------------------------

-- Merges p_merge into p_keep, two clients of one organization, for a member of it: everything
-- that named the merged client names the kept one (payments, appointments and so their
-- expectations, expectations of their own, payer names unless the kept client has the same one,
-- rows of imports not committed yet), the kept client's empty name, e-mail, phone and company take
-- the merged one's, a pending kept client becomes active if the merged one was, and the merged
-- client is deleted. Moving the payments lets the engine match them to the kept client's open
-- expectations. Refusals: not_found (either is missing, or they are of different organizations),
-- not_member, same_client. Returns the kept client's id.
create function public.merge_clients(p_keep uuid, p_merge uuid) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  org uuid;
  keep public.clients;
  gone public.clients;
begin
  select c.organization_id into org from public.clients c
  where c.id = p_keep and c.organization_id = (select m.organization_id from public.clients m where m.id = p_merge);
  if org is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(org);
  if p_keep = p_merge then
    raise exception 'same_client' using errcode = 'P0001';
  end if;
  -- Both rows, in id order: two merges of the same pair, either way round, queue instead of deadlocking.
  perform 1 from public.clients c where c.id in (p_keep, p_merge) order by c.id for update;
  select * into keep from public.clients where id = p_keep;
  select * into gone from public.clients where id = p_merge;
  if keep.id is null or gone.id is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;

  update public.transactions set client_id = keep.id where organization_id = org and client_id = gone.id;
  -- Their expectations follow (private.booking_appointments_after_update).
  update public.booking_appointments set client_id = keep.id where organization_id = org and client_id = gone.id;
  update public.payment_expectations set client_id = keep.id where organization_id = org and client_id = gone.id;
  -- A payer name is unique per client: one the kept client has already goes with the merged client.
  update public.payer_aliases a set client_id = keep.id
  where a.organization_id = org and a.client_id = gone.id
    and not exists (select 1 from public.payer_aliases k where k.organization_id = org and k.client_id = keep.id and k.alias_key = a.alias_key);
  update private.import_staged_rows r set client_id = keep.id
  where r.client_id = gone.id and r.batch_id in (select b.id from public.import_batches b where b.organization_id = org);

  update public.clients c set
    name = case when btrim(c.name) = '' then gone.name else c.name end,
    email = coalesce(c.email, gone.email),
    phone = coalesce(nullif(btrim(c.phone), ''), gone.phone),
    company = coalesce(nullif(btrim(c.company), ''), gone.company),
    status = case when c.status = 'pending' and gone.status = 'active' then 'active'::public.client_status else c.status end
  where c.id = keep.id;
  delete from public.clients where id = gone.id;
  return keep.id;
end
$$;

-- 4 -------------------------------------------------------------------------------------------

create or replace function private.booking_appointments_touch() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if to_jsonb(new) - array['appointment_date', 'start_time', 'end_time', 'buffer_ends_at', 'updated_at', 'client_id']
     is distinct from to_jsonb(old) - array['appointment_date', 'start_time', 'end_time', 'buffer_ends_at', 'updated_at', 'client_id'] then
    new.updated_at := now();
  end if;
  return new;
end
$$;

-- Grants ---------------------------------------------------------------------------------------

revoke execute on function private.check_booking(uuid, uuid, uuid, timestamptz, text, text, text, text, boolean),
  private.booking_appointments_touch()
from public, anon, authenticated;
revoke execute on function public.staff_create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text),
  public.staff_move_booking(uuid, uuid, uuid, timestamptz), public.merge_clients(uuid, uuid)
from public, anon, authenticated;
grant execute on function public.staff_create_booking(uuid, uuid, uuid, timestamptz, text, text, text, text),
  public.staff_move_booking(uuid, uuid, uuid, timestamptz), public.merge_clients(uuid, uuid)
to authenticated;
