-- A tip is part of the amount received (docs/product.md, Transactions): the form and the importer
-- refuse a larger one, and so does the table, for every other path.
alter table public.transactions
  add constraint transactions_tip_within_amount check (tip is null or tip <= amount);
