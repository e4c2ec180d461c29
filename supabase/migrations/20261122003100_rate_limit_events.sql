-- Counters for per-address limits (sign-up today; public booking posts later): one row per
-- event, counted over a sliding window and pruned as they age. Only the server's owner
-- connection uses it: no grants to anon or authenticated, and RLS on with no policy.
create table private.rate_limit_events (
  id bigint generated always as identity primary key,
  kind text not null check (char_length(kind) between 1 and 40),
  key text not null check (char_length(key) between 1 and 200),
  happened_at timestamptz not null default now()
);
create index rate_limit_events_kind_key_idx on private.rate_limit_events (kind, key, happened_at);
alter table private.rate_limit_events enable row level security;
revoke all on private.rate_limit_events from public, anon, authenticated;
