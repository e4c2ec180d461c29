-- payment.received carries the payment as its statement left it (docs/webhooks.md): the rules'
-- trigger (transactions_sort_by_rules, 20261209000000_rules.sql) runs before this one and may
-- set the category, the client, tags and the hold in the same statement, which the insert's
-- transition table does not show. The payment is read again from the table, by id; only when an
-- endpoint wants the statement's organizations, as before. Adds `tags` and `held_for_review`.
create or replace function private.transactions_webhooks() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if not private.webhooks_wanted(array(select distinct n.organization_id from new_rows n)) then
    return null;
  end if;
  perform private.webhook_fan_out(coalesce(jsonb_agg(jsonb_build_object(
    'organization_id', t.organization_id, 'type', 'payment.received', 'subject_id', t.id,
    'data', jsonb_build_object('id', t.id, 'amount', t.amount::text, 'date_received', t.date_received,
      'payment_method', t.payment_method, 'payer', t.raw_payer, 'description', t.description,
      'external_id', t.external_id, 'client_id', t.client_id, 'category', t.category, 'source', t.import_source,
      'tags', to_jsonb(t.tags), 'held_for_review', t.held_for_review,
      'created_at', t.created_at))), '[]'::jsonb))
  from public.transactions t
  where t.id in (select n.id from new_rows n);
  return null;
end
$$;
revoke execute on function private.transactions_webhooks() from public, anon, authenticated;
