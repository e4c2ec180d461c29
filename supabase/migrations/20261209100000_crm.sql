-- CRM Basic Fields and CRM Pipelines (docs/product.md, Clients; docs/decisions/048-crm.md).
--
-- CRM Basic Fields (upgrade c0000000-0000-4000-8000-000000000004):
--   clients.tags        lowercase labels of a client (at most 20, 1 to 40 characters, no comma);
--                       the clients list filters by one through a GIN index;
--   client_notes        a client's notes timeline: who wrote what, when;
--   import_clients()    a CSV file's clients, deduplicated by e-mail (an existing client's blanks
--                       are filled, nothing they hold is overwritten).
-- CRM Pipelines (upgrade c0000000-0000-4000-8000-000000000005):
--   crm_pipelines, crm_stages (named and ordered by owners and administrators), crm_cards (a
--   client on a pipeline, in one stage, with the member who owns the card and a follow-up date).
--
-- Members read these rows; every write goes through the functions below (security definer,
-- stable error codes): they check the membership, the role where one is needed and the upgrade,
-- so the rules hold whichever path writes. Without the upgrade the rows stay, unwritable.

create function private.crm_manager(p_org uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from public.my_organization_ids('owner') as o (id) where o.id = p_org)
    or exists (select 1 from public.my_organization_ids('administrator') as a (id) where a.id = p_org)
$$;
revoke execute on function private.crm_manager(uuid) from public, anon, authenticated;

create function private.crm_require(p_org uuid, p_upgrade uuid) returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_member(p_org);
  if not private.owns_upgrade(p_org, p_upgrade) then
    raise exception 'upgrade_inactive' using errcode = 'P0001';
  end if;
end
$$;
revoke execute on function private.crm_require(uuid, uuid) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Tags
-- ---------------------------------------------------------------------------------------------

-- Tags as stored: trimmed, inner spaces collapsed, lowercase, each once, in the order given.
-- Raises tag_invalid (empty after trimming, a comma or a control character, over 40 characters)
-- or too_many_tags (over 20).
create function private.clean_tags(p_tags text[]) returns text[]
language plpgsql immutable set search_path = ''
as $$
declare
  out text[] := '{}';
  t text;
begin
  foreach t in array coalesce(p_tags, '{}') loop
    t := lower(regexp_replace(btrim(coalesce(t, '')), '\s+', ' ', 'g'));
    if t = '' then continue; end if;
    if char_length(t) > 40 or t ~ '[,[:cntrl:]]' then
      raise exception 'tag_invalid' using errcode = 'P0001';
    end if;
    if not t = any (out) then out := out || t; end if;
  end loop;
  if cardinality(out) > 20 then
    raise exception 'too_many_tags' using errcode = 'P0001';
  end if;
  return out;
end
$$;
revoke execute on function private.clean_tags(text[]) from public, anon, authenticated;


alter table public.clients add column tags text[] not null default '{}' check (cardinality(tags) <= 20 and array_position(tags, null) is null and array_position(tags, '') is null);
-- The list's tag filter (`tags @> array[tag]`) reads this index, beside the organization's.
create index clients_tags_idx on public.clients using gin (tags);

/** Sets a client's tags (replacing them). Codes: not_found, upgrade_inactive, tag_invalid, too_many_tags. */
create function public.set_client_tags(p_client uuid, p_tags text[]) returns text[]
language plpgsql security definer set search_path = ''
as $$
declare
  org uuid;
  cleaned text[];
begin
  select c.organization_id into org from public.clients c
    where c.id = p_client and c.organization_id in (select public.my_organization_ids());
  if org is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.crm_require(org, 'c0000000-0000-4000-8000-000000000004');
  cleaned := private.clean_tags(p_tags);
  update public.clients set tags = cleaned where id = p_client;
  return cleaned;
end
$$;
revoke execute on function public.set_client_tags(uuid, text[]) from public, anon, authenticated;
grant execute on function public.set_client_tags(uuid, text[]) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Notes
-- ---------------------------------------------------------------------------------------------

create table public.client_notes (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  client_id uuid not null,
  author_id uuid references auth.users (id) on delete set null,
  body text not null check (char_length(btrim(body)) between 1 and 5000),
  created_at timestamptz not null default now(),
  foreign key (organization_id, client_id) references public.clients (organization_id, id) on delete cascade
);
create index client_notes_client_idx on public.client_notes (client_id, created_at desc, id);
create index client_notes_org_idx on public.client_notes (organization_id);
create index client_notes_author_idx on public.client_notes (author_id) where author_id is not null;

alter table public.client_notes enable row level security;
revoke all on public.client_notes from anon, authenticated;
grant select on public.client_notes to authenticated;
create policy "client_notes: members read their organization's notes"
  on public.client_notes for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

/** Adds a note to a client, written by the caller. Codes: not_found, upgrade_inactive, note_empty, note_too_long. */
create function public.add_client_note(p_client uuid, p_body text) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  org uuid;
  note_id uuid;
begin
  select c.organization_id into org from public.clients c
    where c.id = p_client and c.organization_id in (select public.my_organization_ids());
  if org is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.crm_require(org, 'c0000000-0000-4000-8000-000000000004');
  if char_length(btrim(coalesce(p_body, ''))) = 0 then
    raise exception 'note_empty' using errcode = 'P0001';
  end if;
  if char_length(btrim(p_body)) > 5000 then
    raise exception 'note_too_long' using errcode = 'P0001';
  end if;
  insert into public.client_notes (organization_id, client_id, author_id, body)
    values (org, p_client, (select auth.uid()), btrim(p_body))
    returning id into note_id;
  return note_id;
end
$$;
revoke execute on function public.add_client_note(uuid, text) from public, anon, authenticated;
grant execute on function public.add_client_note(uuid, text) to authenticated;

/**
 * Deletes a note: its author may, and the organization's owners and administrators may delete
 * anyone's. Codes: not_found, not_author, upgrade_inactive.
 */
create function public.delete_client_note(p_note uuid) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  n public.client_notes;
begin
  select * into n from public.client_notes
    where id = p_note and organization_id in (select public.my_organization_ids());
  if n.id is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.crm_require(n.organization_id, 'c0000000-0000-4000-8000-000000000004');
  if n.author_id is distinct from (select auth.uid()) and not private.crm_manager(n.organization_id) then
    raise exception 'not_author' using errcode = 'P0001';
  end if;
  delete from public.client_notes where id = p_note;
end
$$;
revoke execute on function public.delete_client_note(uuid) from public, anon, authenticated;
grant execute on function public.delete_client_note(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Import
-- ---------------------------------------------------------------------------------------------

/**
 * Imports clients (p_rows: a JSON array of {name, email, phone, company, status, tags}, already
 * checked by the application; the columns' checks still hold). A row is the client already
 * saved with its e-mail (case-blind), or, without an e-mail, the client without one of the same
 * name (as payers compare: case, spaces and accents ignored), or an earlier row of the file
 * alike. Such a client is not overwritten: only what they lack is filled (name, phone, company)
 * and the row's tags are added. Other rows are new clients. All or nothing. Returns
 * {added, filled, unchanged}. Codes: not_member, upgrade_inactive, too_many_rows, tag_invalid,
 * too_many_tags.
 */
create function public.import_clients(p_org uuid, p_rows jsonb) returns jsonb
language plpgsql security definer set search_path = ''
as $$
declare
  r jsonb;
  found_id uuid;
  row_email text;
  row_name text;
  row_tags text[];
  added int := 0;
  filled int := 0;
  unchanged int := 0;
  changed int;
begin
  perform private.crm_require(p_org, 'c0000000-0000-4000-8000-000000000004');
  if jsonb_typeof(p_rows) <> 'array' or jsonb_array_length(p_rows) > 5000 then
    raise exception 'too_many_rows' using errcode = 'P0001';
  end if;
  for r in select value from jsonb_array_elements(p_rows) loop
    row_email := nullif(btrim(coalesce(r ->> 'email', '')), '');
    row_name := btrim(coalesce(r ->> 'name', ''));
    row_tags := private.clean_tags(array(select jsonb_array_elements_text(coalesce(r -> 'tags', '[]'::jsonb))));
    found_id := null;
    if row_email is not null then
      select c.id into found_id from public.clients c
        where c.organization_id = p_org and lower(c.email) = lower(row_email)
        order by c.created_at, c.id limit 1 for update;
    elsif row_name <> '' then
      select c.id into found_id from public.clients c
        where c.organization_id = p_org and c.email is null and public.payer_key(c.name) = public.payer_key(row_name)
        order by c.created_at, c.id limit 1 for update;
    end if;
    if found_id is null then
      insert into public.clients (organization_id, user_id, name, email, phone, company, status, tags)
        values (p_org, (select auth.uid()), row_name, row_email, nullif(btrim(coalesce(r ->> 'phone', '')), ''),
          nullif(btrim(coalesce(r ->> 'company', '')), ''),
          coalesce(nullif(r ->> 'status', ''), 'active')::public.client_status, row_tags);
      added := added + 1;
    else
      update public.clients c set
          name = case when c.name = '' then row_name else c.name end,
          phone = coalesce(c.phone, nullif(btrim(coalesce(r ->> 'phone', '')), '')),
          company = coalesce(c.company, nullif(btrim(coalesce(r ->> 'company', '')), '')),
          tags = private.clean_tags(c.tags || row_tags)
        where c.id = found_id
          and ((c.name = '' and row_name <> '')
            or (c.phone is null and nullif(btrim(coalesce(r ->> 'phone', '')), '') is not null)
            or (c.company is null and nullif(btrim(coalesce(r ->> 'company', '')), '') is not null)
            or not (c.tags @> row_tags));
      get diagnostics changed = row_count;
      if changed > 0 then filled := filled + 1; else unchanged := unchanged + 1; end if;
    end if;
  end loop;
  return jsonb_build_object('added', added, 'filled', filled, 'unchanged', unchanged);
end
$$;
revoke execute on function public.import_clients(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.import_clients(uuid, jsonb) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Pipelines
-- ---------------------------------------------------------------------------------------------

create table public.crm_pipelines (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  created_at timestamptz not null default now(),
  unique (organization_id, id)
);
create index crm_pipelines_org_idx on public.crm_pipelines (organization_id, created_at);

create table public.crm_stages (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  pipeline_id uuid not null,
  name text not null check (char_length(btrim(name)) between 1 and 60),
  position integer not null check (position between 0 and 19),
  unique (pipeline_id, position) deferrable initially deferred,
  unique (pipeline_id, id),
  foreign key (organization_id, pipeline_id) references public.crm_pipelines (organization_id, id) on delete cascade
);
create index crm_stages_org_idx on public.crm_stages (organization_id);

create table public.crm_cards (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  pipeline_id uuid not null,
  stage_id uuid not null,
  client_id uuid not null,
  owner_id uuid references auth.users (id) on delete set null,
  follow_up_on date check (follow_up_on between '2000-01-01' and '2999-12-31'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (pipeline_id, client_id),
  foreign key (organization_id, pipeline_id) references public.crm_pipelines (organization_id, id) on delete cascade,
  foreign key (pipeline_id, stage_id) references public.crm_stages (pipeline_id, id),
  foreign key (organization_id, client_id) references public.clients (organization_id, id) on delete cascade
);
create index crm_cards_stage_idx on public.crm_cards (stage_id);
create index crm_cards_client_idx on public.crm_cards (client_id);
create index crm_cards_owner_idx on public.crm_cards (owner_id) where owner_id is not null;
-- The dashboard's and the mail job's follow-ups of a day.
create index crm_cards_follow_up_idx on public.crm_cards (organization_id, follow_up_on) where follow_up_on is not null;
create index crm_cards_follow_up_day_idx on public.crm_cards (follow_up_on) where follow_up_on is not null;
create trigger crm_cards_touch before update on public.crm_cards
  for each row execute function public.touch_updated_at();

alter table public.crm_pipelines enable row level security;
alter table public.crm_stages enable row level security;
alter table public.crm_cards enable row level security;
revoke all on public.crm_pipelines, public.crm_stages, public.crm_cards from anon, authenticated;
grant select on public.crm_pipelines, public.crm_stages, public.crm_cards to authenticated;
create policy "crm_pipelines: members read their organization's pipelines"
  on public.crm_pipelines for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "crm_stages: members read their organization's stages"
  on public.crm_stages for select to authenticated
  using (organization_id in (select public.my_organization_ids()));
create policy "crm_cards: members read their organization's cards"
  on public.crm_cards for select to authenticated
  using (organization_id in (select public.my_organization_ids()));

/**
 * Creates (p_pipeline null) or changes a pipeline: its name and its stages, in order (p_stages: a
 * JSON array of {id (null for a new stage), name}). A saved stage left out is deleted, unless
 * cards stand in it. Owners and administrators only. Returns the pipeline's id. Codes:
 * not_member, not_manager, upgrade_inactive, not_found, name_invalid, stage_name_invalid,
 * stages_required, too_many_stages, too_many_pipelines, stage_not_empty.
 */
create function public.save_crm_pipeline(p_org uuid, p_pipeline uuid, p_name text, p_stages jsonb) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  pid uuid := p_pipeline;
  s jsonb;
  i int := 0;
  sid uuid;
  kept uuid[] := '{}';
begin
  perform private.crm_require(p_org, 'c0000000-0000-4000-8000-000000000005');
  if not private.crm_manager(p_org) then
    raise exception 'not_manager' using errcode = 'P0001';
  end if;
  if char_length(btrim(coalesce(p_name, ''))) not between 1 and 100 then
    raise exception 'name_invalid' using errcode = 'P0001';
  end if;
  if jsonb_typeof(p_stages) <> 'array' or jsonb_array_length(p_stages) = 0 then
    raise exception 'stages_required' using errcode = 'P0001';
  end if;
  if jsonb_array_length(p_stages) > 20 then
    raise exception 'too_many_stages' using errcode = 'P0001';
  end if;
  if pid is null then
    if (select count(*) from public.crm_pipelines where organization_id = p_org) >= 20 then
      raise exception 'too_many_pipelines' using errcode = 'P0001';
    end if;
    insert into public.crm_pipelines (organization_id, name) values (p_org, btrim(p_name)) returning id into pid;
  else
    update public.crm_pipelines set name = btrim(p_name) where id = pid and organization_id = p_org;
    if not found then
      raise exception 'not_found' using errcode = 'P0001';
    end if;
    perform 1 from public.crm_pipelines where id = pid for update;
  end if;
  for s in select value from jsonb_array_elements(p_stages) loop
    if char_length(btrim(coalesce(s ->> 'name', ''))) not between 1 and 60 then
      raise exception 'stage_name_invalid' using errcode = 'P0001';
    end if;
    sid := nullif(s ->> 'id', '')::uuid;
    if sid is not null then
      update public.crm_stages set name = btrim(s ->> 'name'), position = i where id = sid and pipeline_id = pid;
      if not found then
        raise exception 'not_found' using errcode = 'P0001';
      end if;
    else
      insert into public.crm_stages (organization_id, pipeline_id, name, position)
        values (p_org, pid, btrim(s ->> 'name'), i) returning id into sid;
    end if;
    kept := kept || sid;
    i := i + 1;
  end loop;
  if exists (select 1 from public.crm_cards c where c.pipeline_id = pid and not c.stage_id = any (kept)) then
    raise exception 'stage_not_empty' using errcode = 'P0001';
  end if;
  delete from public.crm_stages where pipeline_id = pid and not id = any (kept);
  return pid;
end
$$;
revoke execute on function public.save_crm_pipeline(uuid, uuid, text, jsonb) from public, anon, authenticated;
grant execute on function public.save_crm_pipeline(uuid, uuid, text, jsonb) to authenticated;

/** Deletes a pipeline with its stages and cards (the clients stay). Codes: not_found, not_manager, upgrade_inactive. */
create function public.delete_crm_pipeline(p_pipeline uuid) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  org uuid;
begin
  select p.organization_id into org from public.crm_pipelines p
    where p.id = p_pipeline and p.organization_id in (select public.my_organization_ids());
  if org is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.crm_require(org, 'c0000000-0000-4000-8000-000000000005');
  if not private.crm_manager(org) then
    raise exception 'not_manager' using errcode = 'P0001';
  end if;
  delete from public.crm_pipelines where id = p_pipeline;
end
$$;
revoke execute on function public.delete_crm_pipeline(uuid) from public, anon, authenticated;
grant execute on function public.delete_crm_pipeline(uuid) to authenticated;

/**
 * Puts a client on a pipeline, in its first stage, owned by the caller. Codes: not_found
 * (pipeline or client not of the caller's organizations, or not of one organization),
 * upgrade_inactive, already_on_pipeline.
 */
create function public.add_crm_card(p_pipeline uuid, p_client uuid) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  org uuid;
  first_stage uuid;
  card uuid;
begin
  select p.organization_id into org from public.crm_pipelines p
    where p.id = p_pipeline and p.organization_id in (select public.my_organization_ids());
  if org is null or not exists (select 1 from public.clients c where c.id = p_client and c.organization_id = org) then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.crm_require(org, 'c0000000-0000-4000-8000-000000000005');
  select s.id into first_stage from public.crm_stages s where s.pipeline_id = p_pipeline order by s.position limit 1;
  insert into public.crm_cards (organization_id, pipeline_id, stage_id, client_id, owner_id)
    values (org, p_pipeline, first_stage, p_client, (select auth.uid()))
    on conflict (pipeline_id, client_id) do nothing
    returning id into card;
  if card is null then
    raise exception 'already_on_pipeline' using errcode = 'P0001';
  end if;
  return card;
end
$$;
revoke execute on function public.add_crm_card(uuid, uuid) from public, anon, authenticated;
grant execute on function public.add_crm_card(uuid, uuid) to authenticated;

-- A card of the caller's organizations, locked, once the upgrade is checked.
create function private.crm_card_for_update(p_card uuid) returns public.crm_cards
language plpgsql security definer set search_path = ''
as $$
declare
  c public.crm_cards;
begin
  select * into c from public.crm_cards
    where id = p_card and organization_id in (select public.my_organization_ids()) for update;
  if c.id is null then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.crm_require(c.organization_id, 'c0000000-0000-4000-8000-000000000005');
  return c;
end
$$;
revoke execute on function private.crm_card_for_update(uuid) from public, anon, authenticated;

/** Moves a card to another stage of its pipeline. Codes: not_found, upgrade_inactive, stage_not_in_pipeline. */
create function public.move_crm_card(p_card uuid, p_stage uuid) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  c public.crm_cards := private.crm_card_for_update(p_card);
begin
  if not exists (select 1 from public.crm_stages s where s.id = p_stage and s.pipeline_id = c.pipeline_id) then
    raise exception 'stage_not_in_pipeline' using errcode = 'P0001';
  end if;
  update public.crm_cards set stage_id = p_stage where id = p_card and stage_id <> p_stage;
end
$$;
revoke execute on function public.move_crm_card(uuid, uuid) from public, anon, authenticated;
grant execute on function public.move_crm_card(uuid, uuid) to authenticated;

/**
 * Sets (or clears, null) a card's follow-up date, and its owner: p_owner, a member of the
 * organization; null keeps the card's owner (the caller when it has none). Codes: not_found,
 * upgrade_inactive, owner_not_member.
 */
create function public.set_crm_follow_up(p_card uuid, p_date date, p_owner uuid) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  c public.crm_cards := private.crm_card_for_update(p_card);
  who uuid := coalesce(p_owner, c.owner_id, (select auth.uid()));
begin
  if p_owner is not null and not exists (select 1 from public.organization_members m where m.organization_id = c.organization_id and m.user_id = who) then
    raise exception 'owner_not_member' using errcode = 'P0001';
  end if;
  update public.crm_cards set follow_up_on = p_date, owner_id = who where id = p_card;
end
$$;
revoke execute on function public.set_crm_follow_up(uuid, date, uuid) from public, anon, authenticated;
grant execute on function public.set_crm_follow_up(uuid, date, uuid) to authenticated;

/** Takes a client off a pipeline. Codes: not_found, upgrade_inactive. */
create function public.remove_crm_card(p_card uuid) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  c public.crm_cards := private.crm_card_for_update(p_card);
begin
  delete from public.crm_cards where id = c.id;
end
$$;
revoke execute on function public.remove_crm_card(uuid) from public, anon, authenticated;
grant execute on function public.remove_crm_card(uuid) to authenticated;
