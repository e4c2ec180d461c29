-- The invoice screens (docs/product.md, Invoicing; app/.server/invoices/list.ts): the list filters
-- an organization's invoices by state and pages them newest first, and must stay fast with 100,000
-- invoices (bench/invoices-list.ts).
--
-- * A state of its own (draft, void) and every state of a sent invoice walk the invoices of one
--   status newest first: invoices_org_status_created_idx.
-- * What the engine waits for, per state: the invoices still owed (sent, partly paid, overdue)
--   start from the open expectations of kind 'invoice' (few, in an organization whose clients
--   pay), and the paid ones are counted there, without reading an invoice.
-- * A search by client reads the client's invoices (invoices_client_idx, as it was); by number,
--   the unique (organization_id, number).
create index invoices_org_status_created_idx on public.invoices (organization_id, status, created_at desc, id desc);
create index payment_expectations_invoice_state_idx on public.payment_expectations (organization_id, status, invoice_id)
  where kind = 'invoice';
