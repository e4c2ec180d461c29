-- A rate-limited event in one statement (app/.server/rate-limit.ts, allowEvent): it was four
-- (the lock, the count, the insert, the pruning) between a begin and a commit, on every public
-- booking page (docs/decisions/023-fewer-round-trips.md). Same rule: events of one (kind, key)
-- are taken one at a time under a transaction lock; a refused event is not counted; events
-- older than the window are pruned. The server's owner connection only, as the table.
create function private.allow_event(event_kind text, event_key text, max_events integer, since timestamptz)
returns boolean
language plpgsql volatile set search_path = ''
as $$
declare
  recent integer;
begin
  perform pg_advisory_xact_lock(hashtextextended('rate:' || event_kind || ':' || event_key, 0));
  select count(*) into recent from private.rate_limit_events e
  where e.kind = event_kind and e.key = event_key and e.happened_at > since;
  if recent >= max_events then
    return false;
  end if;
  insert into private.rate_limit_events (kind, key) values (event_kind, event_key);
  delete from private.rate_limit_events e where e.kind = event_kind and e.key = event_key and e.happened_at < since;
  return true;
end
$$;
revoke all on function private.allow_event(text, text, integer, timestamptz) from public, anon, authenticated;
