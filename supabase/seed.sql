-- The module catalogue and its upgrades. Runs after the migrations on every start, so it is
-- idempotent: fixed ids, `on conflict (id) do update`. updated_at is fixed too (the module
-- screen shows it as the last-updated date); change it when a module's text or price changes.

-- `available`: built and sold (or included); `included`: the free base, active for every
-- organization. The same figures as app/lib/modules.ts (MODULES), which
-- tests/db/catalogue-registry.test.ts compares (docs/decisions/039-what-the-catalogue-sells.md).
insert into public.modules (id, name, short_description, description, icon, feature_type,
  industry_tags, base_gear_cost, version, updated_at, available, included)
values
  ('b0000000-0000-4000-8000-000000000001', 'P2P Transaction Tracking',
   'Track every Zelle, Venmo, CashApp, PayPal and wire payment in one place.',
   'Record the peer-to-peer payments your business receives, match them to clients and categories, search and sort them, and keep an audit trail of who changed what. Sync upgrades import payments from your mailbox automatically.',
   'CreditCard', 'transactions', array['Freelancers', 'Retail', 'Services', 'Real Estate', 'Healthcare'], 0, '2.3.0', '2026-11-01', true, true),
  ('b0000000-0000-4000-8000-000000000002', 'Clients CRM',
   'Keep client contacts, status and payment history together.',
   'A lightweight CRM for small businesses: client records with email, phone and company, active/inactive/pending status, and every payment a client has sent you. Upgrades add pipelines, custom fields and team assignment.',
   'Users', 'clients', array['Freelancers', 'Services', 'Real Estate', 'Consulting'], 0, '1.8.2', '2026-12-04', true, true),
  ('b0000000-0000-4000-8000-000000000003', 'Appointment Booking',
   'A public booking page with services, providers and business hours.',
   'Publish a booking page at your own link. Visitors pick a service, a provider and a time inside your business hours; bookings respect buffers, advance limits and cancellation windows, and can be confirmed automatically.',
   'Calendar', 'booking', array['Healthcare', 'Beauty', 'Fitness', 'Consulting', 'Services'], 1000, '1.4.0', '2026-11-10', true, false),
  ('b0000000-0000-4000-8000-000000000004', 'Reports & Analytics',
   'Revenue, averages, category breakdowns and monthly trends.',
   'See total revenue, average transaction and volume at a glance, with category breakdowns and monthly trends. Upgrades add cohort analysis, forecasting and automated report delivery.',
   'BarChart3', 'reports', array['Retail', 'Services', 'Freelancers', 'Healthcare'], 0, '1.6.1', '2026-12-04', true, true),
  ('b0000000-0000-4000-8000-000000000005', 'Invoicing',
   'Send invoices and match the payments that settle them.',
   'Create branded invoices, send them by email with a payment link for your preferred P2P method, and see each invoice marked paid as soon as the matching transaction arrives.',
   'FileText', 'invoicing', array['Freelancers', 'Consulting', 'Construction'], 1200, '1.2.0', '2026-08-20', true, false),
  ('b0000000-0000-4000-8000-000000000006', 'Reminders & Messaging',
   'Email reminders for unpaid invoices and upcoming appointments.',
   'Gentle nudges before and after an invoice is due that stop once it is paid, and appointment reminders, from templates you edit in English, Spanish and Portuguese. Every client can unsubscribe.',
   'MessageSquare', 'messaging', array['Healthcare', 'Beauty', 'Fitness', 'Services'], 800, '1.1.3', '2026-07-12', true, false),
  ('b0000000-0000-4000-8000-000000000007', 'Inventory',
   'Stock levels, low-stock alerts and product catalogues.',
   'Track products and stock levels, get alerts when an item runs low, and link sales to the payments that paid for them.',
   'Package', 'inventory', array['Retail', 'Food & Beverage', 'E-commerce'], 1500, '1.0.4', '2026-06-05', false, false),
  ('b0000000-0000-4000-8000-000000000008', 'Loyalty & Rewards',
   'Points, punch cards and referral rewards for returning clients.',
   'Reward repeat clients with points or digital punch cards, run referral campaigns and see which clients come back most.',
   'Gift', 'marketing', array['Beauty', 'Food & Beverage', 'Retail', 'Fitness'], 600, '1.0.0', '2026-05-18', false, false),
  ('b0000000-0000-4000-8000-000000000009', 'Expense Tracking',
   'Log expenses and see profit next to revenue.',
   'Record business expenses with receipts and categories, and compare them with the payments you received to see your monthly profit.',
   'Wallet', 'finance', array['Freelancers', 'Construction', 'Real Estate', 'Services'], 0, '1.3.0', '2026-10-02', true, false),
  ('b0000000-0000-4000-8000-000000000010', 'Workflow Automation',
   'Rules that categorize payments and notify your team.',
   'Build if-this-then-that rules: categorize incoming payments, assign clients, notify a teammate, or tag a transaction for review, without writing code.',
   'Zap', 'automation', array['Services', 'Real Estate', 'Healthcare', 'E-commerce'], 2000, '1.0.0', '2026-12-09', true, false)
on conflict (id) do update set
  name = excluded.name, short_description = excluded.short_description,
  description = excluded.description, icon = excluded.icon, feature_type = excluded.feature_type,
  industry_tags = excluded.industry_tags, base_gear_cost = excluded.base_gear_cost,
  version = excluded.version, updated_at = excluded.updated_at,
  available = excluded.available, included = excluded.included;

-- Dependencies name upgrade ids of this list (checked at commit).
insert into public.module_upgrades (id, module_id, name, description, features, gear_cost, tier, dependencies, available)
values
  -- P2P Transaction Tracking
  ('c0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000001', 'P2P Tracking - Email',
   'Import payments automatically from the notification emails your payment apps send.',
   array['Read-only mailbox connection', 'Zelle, Venmo, CashApp and PayPal receipts parsed', 'Duplicate detection by external id', 'Manual sync at any time'],
   1000, 'basic', '{}', true),
  ('c0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000001', 'Email Pro',
   'More mailboxes, a sync every 15 minutes and your own parsing rules.',
   array['Sync every 15 minutes', 'Up to 5 mailboxes', 'Custom parsing rules for senders the app does not know, tested on a sample'],
   2900, 'pro', '{c0000000-0000-4000-8000-000000000001}', true),
  ('c0000000-0000-4000-8000-000000000003', 'b0000000-0000-4000-8000-000000000001', 'Bank Feed Reconciliation',
   'Reconcile P2P payments with your bank statements.',
   array['Bank statement import (OFX, QFX)', 'Automatic reconciliation', 'Cash-outs and own transfers never counted as income', 'Discrepancy alerts'],
   5000, 'enterprise', '{}', true),
  -- Clients CRM
  ('c0000000-0000-4000-8000-000000000004', 'b0000000-0000-4000-8000-000000000002', 'CRM Basic Fields',
   'Tags and notes on every client.',
   array['Client tags', 'Notes timeline', 'CSV import and export'],
   400, 'basic', '{}', true),
  ('c0000000-0000-4000-8000-000000000005', 'b0000000-0000-4000-8000-000000000002', 'CRM Pipelines',
   'Move leads through stages until they pay.',
   array['Custom pipeline stages', 'Drag-and-drop board', 'Follow-ups on the dashboard', 'Follow-up reminders'],
   1800, 'pro', '{c0000000-0000-4000-8000-000000000004}', true),
  ('c0000000-0000-4000-8000-000000000006', 'b0000000-0000-4000-8000-000000000002', 'CRM Enterprise',
   'Merge duplicates, see who changed what, and read your data through an API.',
   array['Possible duplicates found and merged, undoable for 30 days', 'Activity audit log for owners', 'Read-only API with personal tokens'],
   9900, 'enterprise', '{c0000000-0000-4000-8000-000000000005}', true),
  -- Appointment Booking
  ('c0000000-0000-4000-8000-000000000007', 'b0000000-0000-4000-8000-000000000003', 'Booking Reminders',
   'Email reminders before each appointment.',
   array['Reminder 24 hours before', 'Reminder 1 hour before', 'Cancellation link in every email'],
   400, 'basic', '{}', true),
  ('c0000000-0000-4000-8000-000000000008', 'b0000000-0000-4000-8000-000000000003', 'Deposits & Prepayment',
   'Ask for a deposit when a visitor books.',
   array['Deposit per service', 'Payment instructions for Zelle, Venmo, CashApp and PayPal', 'Deposit matched to the transaction'],
   1200, 'pro', '{}', true),
  ('c0000000-0000-4000-8000-000000000009', 'b0000000-0000-4000-8000-000000000003', 'Multi-location Booking',
   'Several locations, each with its own hours and providers.',
   array['Unlimited locations', 'Hours per location', 'Providers per location', 'Location-level reports'],
   4000, 'enterprise', '{c0000000-0000-4000-8000-000000000008}', false),
  -- Reports & Analytics
  ('c0000000-0000-4000-8000-000000000010', 'b0000000-0000-4000-8000-000000000004', 'Advanced Analytics',
   'Deeper insight into who pays, when and how.',
   array['Client cohorts', 'Payment method trends', 'Top clients', 'Custom date ranges', 'Year-over-year comparison'],
   2000, 'pro', '{}', true),
  ('c0000000-0000-4000-8000-000000000011', 'b0000000-0000-4000-8000-000000000004', 'Automation',
   'Reports that build and send themselves.',
   array['Scheduled weekly and monthly reports', 'Email delivery to your team', 'Threshold alerts', 'PDF and CSV exports'],
   1500, 'pro', '{c0000000-0000-4000-8000-000000000010}', true),
  ('c0000000-0000-4000-8000-000000000012', 'b0000000-0000-4000-8000-000000000004', 'Report Export',
   'Export any report.',
   array['CSV export', 'PDF export', 'Print-friendly layout'],
   500, 'basic', '{}', true),
  -- Invoicing
  ('c0000000-0000-4000-8000-000000000013', 'b0000000-0000-4000-8000-000000000005', 'Recurring Invoices',
   'Bill retainers and subscriptions automatically.',
   array['Weekly, monthly and yearly schedules', 'Automatic sending', 'An end date or a number of invoices'],
   1500, 'pro', '{}', true),
  -- Reminders & Messaging
  ('c0000000-0000-4000-8000-000000000014', 'b0000000-0000-4000-8000-000000000006', 'SMS Pack',
   'Text-message reminders.',
   array['500 SMS per month', 'Two-way replies', 'Opt-out handling'],
   900, 'basic', '{}', false),
  -- Workflow Automation
  ('c0000000-0000-4000-8000-000000000015', 'b0000000-0000-4000-8000-000000000010', 'Automation Unlimited',
   'No limit on rules or runs.',
   array['Unlimited rules', 'Unlimited runs', 'Webhooks', 'Run history for 1 year'],
   6000, 'enterprise', '{}', true)
on conflict (id) do update set
  module_id = excluded.module_id, name = excluded.name, description = excluded.description,
  features = excluded.features, gear_cost = excluded.gear_cost, tier = excluded.tier,
  dependencies = excluded.dependencies, available = excluded.available, updated_at = now()
where (module_upgrades.module_id, module_upgrades.name, module_upgrades.description,
    module_upgrades.features, module_upgrades.gear_cost, module_upgrades.tier, module_upgrades.dependencies,
    module_upgrades.available)
  is distinct from (excluded.module_id, excluded.name, excluded.description, excluded.features,
    excluded.gear_cost, excluded.tier, excluded.dependencies, excluded.available);
