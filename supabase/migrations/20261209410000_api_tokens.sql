-- Personal API tokens (docs/api.md; docs/product.md, API tokens), with the CRM Enterprise
-- upgrade: a member makes a token for one organization with scopes, reads payments and clients
-- through the read-only JSON API with it, and revokes it.
--
-- * Only the SHA-256 of a token is kept (token_hash); the token itself is shown once, when made.
--   A token is 32 random bytes, so a hash without salt or stretching is enough: nothing can be
--   guessed from it. `prefix` (its first characters) tells tokens apart on the screen.
-- * A token reads as its member would: the API looks it up (as the system), then reads as that
--   user under RLS, for the token's organization only. A member who leaves, an organization
--   without the upgrade, or a revoked token reads nothing.

create table public.api_tokens (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  prefix text not null check (char_length(prefix) between 8 and 16),
  scopes text[] not null check (cardinality(scopes) between 1 and 2 and scopes <@ array['payments:read', 'clients:read']),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_tokens_org_user_idx on public.api_tokens (organization_id, user_id, created_at desc);
create index api_tokens_user_idx on public.api_tokens (user_id);

alter table public.api_tokens enable row level security;
revoke all on public.api_tokens from anon, authenticated;
grant select on public.api_tokens to authenticated;
grant insert (organization_id, user_id, name, token_hash, prefix, scopes) on public.api_tokens to authenticated;
grant update (revoked_at) on public.api_tokens to authenticated;

create policy "api_tokens: members read their own tokens"
  on public.api_tokens for select to authenticated
  using (user_id = (select auth.uid()) and organization_id in (select public.my_organization_ids()));
-- A token is made only where the organization owns CRM Enterprise.
create policy "api_tokens: members make tokens for themselves where the organization has CRM Enterprise"
  on public.api_tokens for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and organization_id in (select public.my_organization_ids())
    and exists (
      select 1 from public.organization_module_upgrades u
      where u.organization_id = api_tokens.organization_id and u.upgrade_id = 'c0000000-0000-4000-8000-000000000006'
    )
  );
create policy "api_tokens: members revoke their own tokens"
  on public.api_tokens for update to authenticated
  using (user_id = (select auth.uid()) and organization_id in (select public.my_organization_ids()))
  with check (user_id = (select auth.uid()) and revoked_at is not null);
