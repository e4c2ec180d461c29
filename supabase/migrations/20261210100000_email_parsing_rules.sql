-- Custom parsing rules (docs/product.md, Email sync › Custom parsing rules;
-- docs/decisions/052-custom-parsing-rules.md): with Email Pro (c0000000-0000-4000-8000-000000000002),
-- an organization tells the email sync how to read the notices of a sender the app does not know.
-- A rule names the sender (an exact address or '@domain'), an optional text the subject contains,
-- and the labels the amount, the payer and (optionally) the reference id follow in the notice's
-- plain text; never a pattern the server would run. Owners and administrators read and write them,
-- at most 20 per organization (stable code 'parsing_rule_limit'); the sync reads them as the system.

create table public.email_parsing_rules (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  -- 'payments@bank.example' or '@bank.example' (a subdomain matches too), lower-cased.
  sender text not null check (char_length(sender) between 3 and 254 and sender = lower(sender)
    and sender ~ '^([^@\s]+)?@[^@\s.]+(\.[^@\s.]+)+$'),
  subject_contains text check (char_length(btrim(subject_contains)) between 1 and 200),
  amount_label text not null check (char_length(btrim(amount_label)) between 1 and 100),
  payer_label text not null check (char_length(btrim(payer_label)) between 1 and 100),
  id_label text check (char_length(btrim(id_label)) between 1 and 100),
  payment_method public.payment_method not null default 'Other',
  default_category public.transaction_category,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, id)
);
create index email_parsing_rules_org_idx on public.email_parsing_rules (organization_id, created_at, id);
create index email_parsing_rules_created_by_idx on public.email_parsing_rules (created_by);

alter table public.email_parsing_rules enable row level security;
revoke all on public.email_parsing_rules from public, anon, authenticated;
grant select, delete on public.email_parsing_rules to authenticated;
grant insert (organization_id, name, sender, subject_contains, amount_label, payer_label, id_label, payment_method, default_category)
  on public.email_parsing_rules to authenticated;
grant update (name, sender, subject_contains, amount_label, payer_label, id_label, payment_method, default_category)
  on public.email_parsing_rules to authenticated;

create policy "email_parsing_rules: owners and administrators read their organization's rules"
  on public.email_parsing_rules for select to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "email_parsing_rules: owners and administrators add rules"
  on public.email_parsing_rules for insert to authenticated
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "email_parsing_rules: owners and administrators change rules"
  on public.email_parsing_rules for update to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')))
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "email_parsing_rules: owners and administrators delete rules"
  on public.email_parsing_rules for delete to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));

-- Written by members only while the organization owns Email Pro ('upgrade_inactive'), at most 20
-- per organization whoever writes ('parsing_rule_limit'); texts trimmed, the sender lower-cased.
create function private.email_parsing_rules_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  -- A member writes only while the organization owns Email Pro; the server's own writes (no
  -- signed-in user) are trusted, as the sync reads the rules only while it does.
  if auth.uid() is not null and not private.owns_upgrade(new.organization_id, 'c0000000-0000-4000-8000-000000000002') then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
  if tg_op = 'INSERT' then
    -- Serializes the organization's additions, so two at once cannot both pass the count.
    perform 1 from public.organizations o where o.id = new.organization_id for update;
    if (select count(*) from public.email_parsing_rules r where r.organization_id = new.organization_id) >= 20 then
      raise exception 'parsing_rule_limit' using errcode = 'P0001';
    end if;
  end if;
  new.name := btrim(new.name);
  new.sender := lower(btrim(new.sender));
  new.subject_contains := nullif(btrim(new.subject_contains), '');
  new.amount_label := btrim(new.amount_label);
  new.payer_label := btrim(new.payer_label);
  new.id_label := nullif(btrim(new.id_label), '');
  new.updated_at := now();
  return new;
end
$$;
create trigger email_parsing_rules_before_write before insert or update on public.email_parsing_rules
  for each row execute function private.email_parsing_rules_before_write();
revoke execute on function private.email_parsing_rules_before_write() from public, anon, authenticated;

-- Each sync run records how many notices the custom rules read.
alter table public.email_sync_runs add column custom_rule_count integer not null default 0 check (custom_rule_count >= 0);
