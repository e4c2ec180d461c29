-- The invoice mail is sent once (docs/product.md, Invoicing; app/.server/invoices/mail.ts): the
-- server records the mail of an invoice here before it sends it, so a double submit, a retried
-- request or two instances send it once; a send that fails removes the record. Written by the
-- server only (no role reads or writes it), as private.job_deliveries.
create table private.invoice_mails (
  invoice_id uuid primary key references public.invoices (id) on delete cascade,
  recipient text not null check (char_length(recipient) between 1 and 320),
  sent_at timestamptz not null default now()
);
alter table private.invoice_mails enable row level security;
revoke all on private.invoice_mails from public, anon, authenticated;
