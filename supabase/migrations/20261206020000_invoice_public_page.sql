-- The invoice's public page (/i/{token}: no sign-in, docs/decisions/042-invoices-on-the-engine.md):
-- what the client reads by the token of the link they were sent, as anon. The token is 64 hex
-- characters; the database keeps its SHA-256 only (as booking manage tokens). A draft has no
-- token; a voided invoice still answers, with its state, so the client is told.
--
-- 1. public.get_public_invoice(token): the invoice as sent (number, who it was billed to, dates,
--    notes, amounts, state, what was received, its memo code), its organization's name and logo,
--    and where the organization is paid (its payment handles).
-- 2. public.get_public_invoice_lines(token): its lines, in order.

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
