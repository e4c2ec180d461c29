-- The invoice's public page (/i/{token}: no sign-in, docs/decisions/042-invoices-on-the-engine.md):
-- what the client reads by the token of the link they were sent, as anon. The token is 64 hex
-- characters; the database keeps its SHA-256 only (as booking manage tokens). A draft has no
-- token; a voided invoice still answers, with its state, so the client is told.
--
-- 1. public.get_public_invoice(token): the invoice as sent (number, who it was billed to, dates,
--    notes, amounts, state, what was received, its memo code), its organization's name and logo,
--    and where the organization is paid (its payment handles).
-- 2. public.get_public_invoice_lines(token): its lines, in order.
-- 3. public.send_invoice: the sealed copy of the token is optional (a server without a secrets key
--    still sends; staff then cannot copy the link again).

create function public.get_public_invoice(token text)
returns table (number integer, state text, language text, bill_to_name text, issue_date date, due_date date, notes text,
  subtotal numeric, discount numeric, tax_rate numeric, total numeric, amount_paid numeric, balance numeric,
  memo_code text, organization_name text, organization_logo_url text,
  zelle text, venmo text, cashapp text, paypal text)
language sql stable security definer set search_path = ''
as $$
  select i.number, i.state, i.language, i.bill_to_name, i.issue_date, i.due_date, i.notes,
    i.subtotal, i.discount, i.tax_rate, i.total, i.amount_paid, i.balance, i.memo_code,
    o.name, o.logo_url, h.zelle, h.venmo, h.cashapp, h.paypal
  from public.invoice_overview i
  join public.organizations o on o.id = i.organization_id
  left join public.payment_handles h on h.organization_id = i.organization_id
  where token ~ '^[0-9a-f]{64}$'
    and i.public_token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex')
$$;

create function public.get_public_invoice_lines(token text)
returns table (description text, quantity numeric, unit_price numeric, amount numeric)
language sql stable security definer set search_path = ''
as $$
  select l.description, l.quantity, l.unit_price, l.amount
  from public.invoices i
  join public.invoice_lines l on l.invoice_id = i.id
  where token ~ '^[0-9a-f]{64}$'
    and i.public_token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex')
  order by l.position
$$;

revoke execute on function public.get_public_invoice(text), public.get_public_invoice_lines(text) from public, anon, authenticated;
grant execute on function public.get_public_invoice(text), public.get_public_invoice_lines(text) to anon, authenticated;

create or replace function public.send_invoice(p_invoice_id uuid, p_token_hash text, p_sealed_token text) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  i public.invoices;
  c public.clients;
  given integer;
  e_id uuid;
begin
  select * into i from public.invoices where id = p_invoice_id for update;
  if not found then
    raise exception 'not_found' using errcode = 'P0001';
  end if;
  perform private.require_member(i.organization_id);
  if not private.organization_has_module(i.organization_id, 'b0000000-0000-4000-8000-000000000005') then
    raise exception 'module_inactive' using errcode = 'P0001';
  end if;
  if i.status <> 'draft' then
    raise exception 'invoice_not_draft' using errcode = 'P0001';
  end if;
  select * into c from public.clients where id = i.client_id;
  if c.id is null or btrim(coalesce(c.name, '')) = '' then
    raise exception 'invoice_without_client' using errcode = 'P0001';
  end if;
  if i.total <= 0 or not exists (select 1 from public.invoice_lines l where l.invoice_id = i.id) then
    raise exception 'invoice_empty' using errcode = 'P0001';
  end if;
  if p_token_hash is null or p_token_hash !~ '^[0-9a-f]{64}$'
    or (p_sealed_token is not null and char_length(p_sealed_token) not between 1 and 1000) then
    raise exception 'invalid_token' using errcode = 'P0001';
  end if;
  given := private.next_invoice_number(i.organization_id);
  insert into public.payment_expectations (organization_id, kind, invoice_id, client_id, amount_due, memo_code, opens_at)
  values (i.organization_id, 'invoice', i.id, i.client_id, i.total, private.new_memo_code(i.organization_id),
    i.issue_date::timestamptz)
  returning id into e_id;
  update public.invoices
  set status = 'sent', number = given, sent_at = now(), expectation_id = e_id, public_token_hash = p_token_hash,
    bill_to_name = c.name, bill_to_email = c.email
  where id = i.id;
  if p_sealed_token is not null then
    insert into private.invoice_tokens (invoice_id, sealed) values (i.id, p_sealed_token);
  end if;
  perform private.match_expectation(e_id);
  return given;
end
$$;
