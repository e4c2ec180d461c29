-- A limited event's cost no longer grows with the events counted (docs/decisions/035-gathered-statements.md).
-- allow_event counted one row per event over the window: a limit of 600 an hour meant counting
-- up to 600 rows on every public page, and a generous one (an office's shared address) tens of
-- thousands, 1.4 ms of the database's time a call at 15,000. Events are now counted in buckets of
-- a sixtieth of the window, one row each: at most 61 rows a key, whatever the limit.
--
-- Same rule, on the cautious side: a bucket counts while any part of it is inside the window, so
-- an event is counted for the window and at most one bucket more, never less; a key never gets
-- more than max_events in any window. Events of one (kind, key) are still taken one at a time
-- under a transaction lock; a refused event is not counted. private.rate_limit_events keeps the
-- failures counted apart from attempts (countEvents, recordEvent).
create table private.rate_limit_buckets (
  kind text not null check (char_length(kind) between 1 and 40),
  key text not null check (char_length(key) between 1 and 200),
  bucket timestamptz not null,
  events integer not null check (events > 0),
  primary key (kind, key, bucket)
);
alter table private.rate_limit_buckets enable row level security;
revoke all on private.rate_limit_buckets from public, anon, authenticated;

-- The events of requests that arrived together, in one statement (app/.server/rate-limit.ts
-- gathers them): a JSON array of {kind, key, max_events, window_minutes}, answered in its order.
-- The locks are taken in one order, whatever the array's, so two batches running at once on two
-- connections cannot each wait for the other. Each event as allow_event took it: the key's lock,
-- its count, its bucket, and its buckets that left the window pruned.
create function private.allow_events(events jsonb)
returns table (n integer, allowed boolean)
language plpgsql volatile set search_path = ''
as $$
declare
  e record;
  -- A bucket is a sixtieth of its window: as many seconds as the window has minutes.
  width interval;
  first_counted timestamptz;
  recent integer;
begin
  for e in
    select t.i::integer as i, t.x->>'kind' as kind, t.x->>'key' as key,
      (t.x->>'max_events')::integer as max_events, (t.x->>'window_minutes')::integer as window_minutes
    from jsonb_array_elements(events) with ordinality as t(x, i)
    order by hashtextextended('rate:' || (t.x->>'kind') || ':' || (t.x->>'key'), 0), t.i
  loop
    perform pg_advisory_xact_lock(hashtextextended('rate:' || e.kind || ':' || e.key, 0));
    width := make_interval(secs => e.window_minutes);
    first_counted := now() - make_interval(mins => e.window_minutes) - width;
    select coalesce(sum(b.events), 0) into recent from private.rate_limit_buckets b
    where b.kind = e.kind and b.key = e.key and b.bucket > first_counted;
    n := e.i;
    allowed := recent < e.max_events;
    if allowed then
      insert into private.rate_limit_buckets as b (kind, key, bucket, events)
      values (e.kind, e.key, date_bin(width, now(), timestamptz 'epoch'), 1)
      on conflict (kind, key, bucket) do update set events = b.events + 1;
      delete from private.rate_limit_buckets b where b.kind = e.kind and b.key = e.key and b.bucket <= first_counted;
    end if;
    return next;
  end loop;
end
$$;
revoke all on function private.allow_events(jsonb) from public, anon, authenticated;

-- The old function, for instances of the previous version that run beside a new one during a
-- rolling deploy: it counts in the same buckets. A later migration can drop it.
create or replace function private.allow_event(event_kind text, event_key text, max_events integer, since timestamptz)
returns boolean
language sql volatile set search_path = ''
as $$
  select e.allowed from private.allow_events(jsonb_build_array(jsonb_build_object('kind', event_kind, 'key', event_key,
    'max_events', max_events, 'window_minutes', greatest(1, round(extract(epoch from now() - since) / 60))))) e
$$;

-- The events the old function counted move to their buckets, so a limit reached before the
-- upgrade stays reached.
insert into private.rate_limit_buckets (kind, key, bucket, events)
select kind, key, date_bin(interval '1 minute', happened_at, timestamptz 'epoch'), count(*)
from private.rate_limit_events
where happened_at > now() - interval '1 day'
group by 1, 2, 3;
