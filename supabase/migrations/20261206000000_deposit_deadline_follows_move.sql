-- A moved appointment's open deposit gets the deadline it would have had if booked for the new
-- time (private.deposit_deadline, from when it was asked), and never less than 15 minutes after
-- the move (nor after the new start): moved earlier, the slot is not held past the organization's
-- "minutes before the start"; moved later, the visitor keeps the hold the organization gives.
-- The release job (private.release_expired_holds) reads due_at, so it follows by itself, and so
-- do the booked page and the reminders, which show due_at.

create function private.booking_appointments_deposit_follows_move() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.payment_expectations e
  set due_at = greatest(
    private.deposit_deadline(new.organization_id, new.starts_at, e.opens_at),
    least(now() + interval '15 minutes', new.starts_at))
  where e.appointment_id = new.id and e.kind = 'deposit' and e.status = 'open';
  return null;
end
$$;

create trigger booking_appointments_deposit_follows_move after update of starts_at on public.booking_appointments
  for each row when (new.starts_at is distinct from old.starts_at)
  execute function private.booking_appointments_deposit_follows_move();

revoke execute on function private.booking_appointments_deposit_follows_move() from public, anon, authenticated;
