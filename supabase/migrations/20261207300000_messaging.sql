-- Reminders & Messaging (docs/product.md, Reminders & Messaging): the organization's message
-- templates, its invoice reminder settings, and the client addresses that unsubscribed.
--
-- * public.message_templates: what an organization wrote instead of the built-in text of a kind
--   of message (invoice reminder before the due date, after it, appointment reminder), per
--   language. A kind and language with no row uses the built-in text (public/locales/*/
--   messaging.json). Members read them; owners and administrators write them. A placeholder the
--   kind does not know is refused here too (the screen names it first).
-- * public.messaging_settings: one row per organization with the module (made when the module is
--   activated): invoice reminders on or off, the days before the due date and after it.
-- * public.client_unsubscribes: a client address that followed the unsubscribe link of a mail of
--   the organization; it gets no more reminders from it. Written by the server only, after it
--   checked the link's signature; members read them (the client's page says so).
-- * Activating the module is possible: the catalogue row becomes available (docs/decisions/
--   039-what-the-catalogue-sells.md; supabase/seed.sql says the same on every start).

-- 1 Templates ---------------------------------------------------------------------------------------

create table public.message_templates (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  kind text not null check (kind in ('invoice_before', 'invoice_after', 'appointment_reminder')),
  language text not null check (language in ('en', 'es', 'pt-BR')),
  -- One line (it is a mail's subject), no control character.
  subject text not null check (char_length(btrim(subject)) between 1 and 200
    and subject !~ '[\x01-\x1f\x7f-\x9f\u2028\u2029]'),
  -- Lines, no other control character.
  body text not null check (char_length(btrim(body)) between 1 and 5000
    and body !~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]'),
  updated_at timestamptz not null default now(),
  unique (organization_id, kind, language),
  -- Every "{{" opens a placeholder of the kind: {{client_name}}, {{ amount }}… (app/lib/schemas/messaging.ts).
  constraint message_templates_placeholders check (
    case when kind = 'appointment_reminder' then
      subject !~ '\{\{(?!\s*(client_name|service|start_time|manage_link|organization_name)\s*\}\})'
      and body !~ '\{\{(?!\s*(client_name|service|start_time|manage_link|organization_name)\s*\}\})'
    else
      subject !~ '\{\{(?!\s*(client_name|invoice_number|amount|balance|due_date|pay_link|memo_code|organization_name)\s*\}\})'
      and body !~ '\{\{(?!\s*(client_name|invoice_number|amount|balance|due_date|pay_link|memo_code|organization_name)\s*\}\})'
    end)
);
create trigger message_templates_touch before update on public.message_templates
  for each row execute function public.touch_updated_at();

revoke all on public.message_templates from anon, authenticated;
alter table public.message_templates enable row level security;
grant select, delete on public.message_templates to authenticated;
grant insert (organization_id, kind, language, subject, body) on public.message_templates to authenticated;
grant update (subject, body) on public.message_templates to authenticated;

create policy "message_templates: members read their organization's templates"
  on public.message_templates for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "message_templates: owners and administrators write their organization's templates"
  on public.message_templates for insert to authenticated
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "message_templates: owners and administrators change their organization's templates"
  on public.message_templates for update to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')))
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));
create policy "message_templates: owners and administrators reset their organization's templates"
  on public.message_templates for delete to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));

-- 2 Reminder settings -------------------------------------------------------------------------------

-- The defaults are the product's (3 days before; 1, 7 and 14 days after): the row is made with
-- them when the module is activated, so the job and the screen read one place.
create table public.messaging_settings (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  invoice_reminders boolean not null default true,
  days_before integer[] not null default '{3}' check (
    cardinality(days_before) <= 5 and array_position(days_before, null) is null
    and 1 <= all (days_before) and 60 >= all (days_before)),
  days_after integer[] not null default '{1,7,14}' check (
    cardinality(days_after) <= 5 and array_position(days_after, null) is null
    and 1 <= all (days_after) and 120 >= all (days_after)),
  updated_at timestamptz not null default now()
);
create trigger messaging_settings_touch before update on public.messaging_settings
  for each row execute function public.touch_updated_at();

revoke all on public.messaging_settings from anon, authenticated;
alter table public.messaging_settings enable row level security;
grant select on public.messaging_settings to authenticated;
grant update (invoice_reminders, days_before, days_after) on public.messaging_settings to authenticated;

create policy "messaging_settings: members read their organization's settings"
  on public.messaging_settings for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "messaging_settings: owners and administrators change their organization's settings"
  on public.messaging_settings for update to authenticated
  using (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')))
  with check (organization_id in (select public.my_organization_ids('owner'))
    or organization_id in (select public.my_organization_ids('administrator')));

-- The module's activation makes its settings row (kept when it is deactivated and activated again).
create function private.messaging_module_added() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.messaging_settings (organization_id)
  select distinct n.organization_id from new_rows n where n.module_id = 'b0000000-0000-4000-8000-000000000006'
  on conflict (organization_id) do nothing;
  return null;
end
$$;
create trigger organization_modules_messaging after insert on public.organization_modules
  referencing new table as new_rows for each statement execute function private.messaging_module_added();
insert into public.messaging_settings (organization_id)
select organization_id from public.organization_modules where module_id = 'b0000000-0000-4000-8000-000000000006'
on conflict (organization_id) do nothing;

-- 3 Client unsubscribes -----------------------------------------------------------------------------

create table public.client_unsubscribes (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- Lower case, trimmed: the address as the reminders compare it.
  email text not null check (email = lower(btrim(email)) and char_length(email) between 3 and 320),
  created_at timestamptz not null default now(),
  primary key (organization_id, email)
);

revoke all on public.client_unsubscribes from anon, authenticated;
alter table public.client_unsubscribes enable row level security;
grant select on public.client_unsubscribes to authenticated;

create policy "client_unsubscribes: members read their organization's unsubscribed clients"
  on public.client_unsubscribes for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

revoke execute on function private.messaging_module_added() from public, anon, authenticated;

-- 4 The catalogue sells the module ------------------------------------------------------------------

update public.modules set available = true where id = 'b0000000-0000-4000-8000-000000000006';
