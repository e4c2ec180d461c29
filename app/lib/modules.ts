/**
 * Static parts of the marketplace (docs/product.md, Marketplace and modules): the registry of the
 * catalogue's modules as code knows them, who may see a module, and the three industry templates
 * with the catalogue modules each one bundles. Template names and descriptions are translated
 * (marketplace.json, templates).
 */

/**
 * What the catalogue does with an item today (docs/decisions/039-what-the-catalogue-sells.md):
 * `included` is part of the free base, active for every organization and never sold;
 * `available` is built and sold for its gears; `comingSoon` is not built: shown, never sold.
 */
export type Offer = 'included' | 'available' | 'comingSoon'

/**
 * A screen an item unlocks, as its module page links to it ("What you get"): the label's key
 * (marketplace.json, `screens.<key>`) and the address, where `{slug}` is the organization's slug.
 */
export type UnlockedScreen = { key: string; to: string }

/** A catalogue upgrade as code knows it: its fixed id, its catalogue (English) name, whether it is sold, and what it unlocks. */
export type CatalogueUpgradeIdentity = { id: string; name: string; available: boolean; screens: readonly UnlockedScreen[] }

/**
 * A catalogue module as code knows it: its fixed id, its `feature_type`, its catalogue (English)
 * name, its offer, the screens it unlocks, and its upgrades.
 */
export type CatalogueModuleIdentity = {
	id: string
	featureType: string
	name: string
	offer: Offer
	screens: readonly UnlockedScreen[]
	upgrades: Record<string, CatalogueUpgradeIdentity>
}

/** A coming-soon upgrade: shown with its module, never sold, unlocking nothing yet. */
function comingSoon(id: string, name: string): CatalogueUpgradeIdentity {
	return { id, name, available: false, screens: [] }
}

/**
 * The registry of the catalogue, the one place that says, for each row of supabase/seed.sql,
 * whether it is sold and which screens it unlocks. The marketplace, the module page ("What you
 * get"), the sidebar and the screens read it; the SQL purchase functions read the same figures
 * from the rows (`available`, `included`), and tests/db/catalogue-registry.test.ts fails when the
 * two disagree or when an item that is sold unlocks no screen. Making an item available: set its
 * `offer` (or `available`) here and in supabase/seed.sql, and list its screens.
 */
export const MODULES = {
	p2p: {
		id: 'b0000000-0000-4000-8000-000000000001',
		featureType: 'transactions',
		name: 'P2P Transaction Tracking',
		offer: 'included',
		screens: [
			{ key: 'dashboard', to: '/app/dashboard' },
			{ key: 'transactions', to: '/app/transactions' },
			{ key: 'importPayments', to: '/app/transactions/import' },
			{ key: 'categories', to: '/app/categories' },
		],
		upgrades: {
			/** The email upgrade: its dialog and card offer the mailbox connectors (docs/product.md, Integrations). */
			email: {
				id: 'c0000000-0000-4000-8000-000000000001',
				name: 'P2P Tracking - Email',
				available: true,
				screens: [
					{ key: 'mailboxConnection', to: '/app/modules/b0000000-0000-4000-8000-000000000001#integrations' },
					{ key: 'syncHistory', to: '/app/modules/b0000000-0000-4000-8000-000000000001#email-sync' },
				],
			},
			/** Up to 5 mailboxes read every 15 minutes, and parsing rules for unknown senders (docs/product.md, Email sync). */
			emailPro: {
				id: 'c0000000-0000-4000-8000-000000000002',
				name: 'Email Pro',
				available: true,
				screens: [
					{ key: 'mailboxes', to: '/app/modules/b0000000-0000-4000-8000-000000000001#integrations' },
					{ key: 'parsingRules', to: '/app/modules/b0000000-0000-4000-8000-000000000001/parsing-rules' },
				],
			},
			/** OFX/QFX statements reconciled with the app payments, discrepancies mailed (docs/product.md, Bank feed). */
			bankFeed: {
				id: 'c0000000-0000-4000-8000-000000000003',
				name: 'Bank Feed Reconciliation',
				available: true,
				screens: [{ key: 'bankReconciliation', to: '/app/transactions/reconciliation' }],
			},
		},
	},
	crm: {
		id: 'b0000000-0000-4000-8000-000000000002',
		featureType: 'clients',
		name: 'Clients CRM',
		offer: 'included',
		screens: [{ key: 'clients', to: '/app/clients' }],
		upgrades: {
			/** Client tags, a notes timeline, client CSV import and export (docs/product.md, Clients › Tags and notes). */
			basicFields: {
				id: 'c0000000-0000-4000-8000-000000000004',
				name: 'CRM Basic Fields',
				available: true,
				screens: [
					{ key: 'clientTags', to: '/app/clients' },
					{ key: 'clientImport', to: '/app/clients/import' },
				],
			},
			/** Pipelines with named stages, a board, follow-ups on the dashboard and by mail (docs/product.md, Clients › Pipelines). */
			pipelines: {
				id: 'c0000000-0000-4000-8000-000000000005',
				name: 'CRM Pipelines',
				available: true,
				screens: [
					{ key: 'pipelines', to: '/app/clients/pipelines' },
					{ key: 'followUps', to: '/app/dashboard' },
				],
			},
			/** Duplicates merged with a 30-day undo, the audit log, API tokens (docs/product.md, Clients › Duplicates; Settings). */
			enterprise: {
				id: 'c0000000-0000-4000-8000-000000000006',
				name: 'CRM Enterprise',
				available: true,
				screens: [
					{ key: 'clientDuplicates', to: '/app/clients/duplicates' },
					{ key: 'auditLog', to: '/app/settings/audit-log' },
					{ key: 'apiTokens', to: '/app/settings/api-tokens' },
				],
			},
		},
	},
	booking: {
		id: 'b0000000-0000-4000-8000-000000000003',
		featureType: 'booking',
		name: 'Appointment Booking',
		offer: 'available',
		screens: [
			{ key: 'bookingCalendar', to: '/app/booking/calendar' },
			{ key: 'bookingServices', to: '/app/booking/services' },
			{ key: 'bookingProviders', to: '/app/booking/providers' },
			{ key: 'bookingAnalytics', to: '/app/booking/analytics' },
			{ key: 'bookingSettings', to: '/app/booking/settings' },
			{ key: 'publicBookingPage', to: '/book/{slug}' },
		],
		upgrades: {
			/** Reminder mails before each appointment (docs/product.md, Booking reminders). */
			reminders: {
				id: 'c0000000-0000-4000-8000-000000000007',
				name: 'Booking Reminders',
				available: true,
				screens: [{ key: 'reminderSettings', to: '/app/booking/settings#reminders' }],
			},
			/** Deposits asked per service, matched to the payment that arrives (docs/product.md, Deposits and prepayment). */
			deposits: {
				id: 'c0000000-0000-4000-8000-000000000008',
				name: 'Deposits & Prepayment',
				available: true,
				screens: [
					{ key: 'serviceDeposits', to: '/app/booking/services' },
					{ key: 'paymentHandles', to: '/app/settings/organization#getting-paid' },
					{ key: 'owed', to: '/app/owed' },
				],
			},
			multiLocation: comingSoon('c0000000-0000-4000-8000-000000000009', 'Multi-location Booking'),
		},
	},
	reports: {
		id: 'b0000000-0000-4000-8000-000000000004',
		featureType: 'reports',
		name: 'Reports & Analytics',
		offer: 'included',
		screens: [
			{ key: 'reports', to: '/app/reports' },
			{ key: 'taxYear', to: '/app/reports/tax-year' },
		],
		upgrades: {
			/** Cohorts, rail trends, year over year and top clients (docs/product.md, Reports: Advanced Analytics). */
			advancedAnalytics: {
				id: 'c0000000-0000-4000-8000-000000000010',
				name: 'Advanced Analytics',
				available: true,
				screens: [{ key: 'advancedAnalytics', to: '/app/reports/analytics' }],
			},
			/** Weekly and monthly reports mailed as a PDF, and threshold alerts (docs/product.md, Reports › Automation). */
			automation: {
				id: 'c0000000-0000-4000-8000-000000000011',
				name: 'Automation',
				available: true,
				screens: [{ key: 'reportAutomation', to: '/app/reports/automation' }],
			},
			/** Every report as a PDF and a print-friendly page (docs/product.md, Reports › Report Export). */
			export: {
				id: 'c0000000-0000-4000-8000-000000000012',
				name: 'Report Export',
				available: true,
				screens: [{ key: 'reportPdf', to: '/app/reports' }],
			},
		},
	},
	invoicing: {
		id: 'b0000000-0000-4000-8000-000000000005',
		featureType: 'invoicing',
		name: 'Invoicing',
		/** Invoices with a payment code, marked paid by the matching engine (docs/product.md, Invoicing). */
		offer: 'available',
		screens: [
			{ key: 'invoices', to: '/app/invoices' },
			{ key: 'newInvoice', to: '/app/invoices/new' },
		],
		upgrades: {
			/** Schedules that make and send invoices by themselves (docs/product.md, Recurring invoices). */
			recurring: {
				id: 'c0000000-0000-4000-8000-000000000013',
				name: 'Recurring Invoices',
				available: true,
				screens: [{ key: 'recurringInvoices', to: '/app/invoices/recurring' }],
			},
		},
	},
	messaging: {
		id: 'b0000000-0000-4000-8000-000000000006',
		featureType: 'messaging',
		name: 'Reminders & Messaging',
		/** Invoice reminders, the templates of client mails, the client unsubscribe (docs/product.md, Reminders & Messaging). */
		offer: 'available',
		screens: [
			{ key: 'messageTemplates', to: '/app/messaging' },
			{ key: 'invoiceReminderSettings', to: '/app/messaging#reminders' },
		],
		upgrades: { sms: comingSoon('c0000000-0000-4000-8000-000000000014', 'SMS Pack') },
	},
	inventory: {
		id: 'b0000000-0000-4000-8000-000000000007',
		featureType: 'inventory',
		name: 'Inventory',
		offer: 'comingSoon',
		screens: [],
		upgrades: {},
	},
	loyalty: {
		id: 'b0000000-0000-4000-8000-000000000008',
		featureType: 'marketing',
		name: 'Loyalty & Rewards',
		offer: 'comingSoon',
		screens: [],
		upgrades: {},
	},
	expenses: {
		id: 'b0000000-0000-4000-8000-000000000009',
		featureType: 'finance',
		name: 'Expense Tracking',
		/** Expenses with receipts, outgoing rows of imports, and monthly profit (docs/product.md, Expense Tracking). */
		offer: 'available',
		screens: [
			{ key: 'expenses', to: '/app/expenses' },
			{ key: 'newExpenses', to: '/app/expenses/new' },
		],
		upgrades: {},
	},
	automation: {
		id: 'b0000000-0000-4000-8000-000000000010',
		featureType: 'automation',
		name: 'Workflow Automation',
		/** Rules run on every payment as it arrives, with their run history (docs/product.md, Rules). */
		offer: 'available',
		screens: [
			{ key: 'rules', to: '/app/rules' },
			{ key: 'ruleHistory', to: '/app/rules#history' },
		],
		upgrades: {
			/** No limit on rules, and signed webhooks with their delivery log (docs/product.md, Rules; Webhooks). */
			unlimited: {
				id: 'c0000000-0000-4000-8000-000000000015',
				name: 'Automation Unlimited',
				available: true,
				screens: [{ key: 'webhooks', to: '/app/webhooks' }],
			},
		},
	},
} as const satisfies Record<string, CatalogueModuleIdentity>

const REGISTRY_MODULES: readonly CatalogueModuleIdentity[] = Object.values(MODULES)
const REGISTRY_UPGRADES: ReadonlyArray<CatalogueUpgradeIdentity & { moduleId: string }> = REGISTRY_MODULES.flatMap((m) =>
	Object.values(m.upgrades).map((u) => ({ ...u, moduleId: m.id })),
)

/** The registry's entry of a module, by id (undefined for an id the registry does not know). */
export function registryModule(id: string): CatalogueModuleIdentity | undefined {
	return REGISTRY_MODULES.find((m) => m.id === id)
}

/** The registry's entry of an upgrade, by id, with its module's id. */
export function registryUpgrade(id: string): (CatalogueUpgradeIdentity & { moduleId: string }) | undefined {
	return REGISTRY_UPGRADES.find((u) => u.id === id)
}

/** What the catalogue does with a module today; a row the registry does not know is not sold. */
export function moduleOffer(id: string): Offer {
	return registryModule(id)?.offer ?? 'comingSoon'
}

/** Whether an upgrade can be bought today: it is built, and so is its module (an unknown one is not). */
export function upgradeAvailable(id: string): boolean {
	const upgrade = registryUpgrade(id)
	return upgrade !== undefined && upgrade.available && moduleOffer(upgrade.moduleId) !== 'comingSoon'
}

/** The screens a module or upgrade unlocks, with the organization's slug in their addresses. */
export function unlockedScreens(screens: readonly UnlockedScreen[], slug: string): UnlockedScreen[] {
	return screens.map((s) => ({ key: s.key, to: s.to.replace('{slug}', encodeURIComponent(slug)) }))
}

/** Every module and upgrade of the registry (tests compare them with the catalogue rows). */
export function registryItems() {
	return { modules: REGISTRY_MODULES, upgrades: REGISTRY_UPGRADES }
}

// Shorthands of the registry for the two identities code uses most.

/** The P2P transaction-tracking module, whose sync status the payments screens show. */
export const P2P_MODULE_ID = MODULES.p2p.id

/** The upgrade whose dialog and card offer the mailbox connectors, by its catalogue name. */
export const MAIL_UPGRADE_NAME = MODULES.p2p.upgrades.email.name

export const MODULE_VISIBILITIES = ['any', 'manager', 'administrator', 'owner'] as const
export type ModuleVisibility = (typeof MODULE_VISIBILITIES)[number]

export const DEFAULT_MODULE_SETTINGS = { visibility: 'any', emailNotifications: true } as const

export type IndustryTemplate = {
	id: 'realEstate' | 'freelancer' | 'medical'
	icon: 'Building2' | 'Briefcase' | 'Stethoscope'
	moduleIds: string[]
}

export const INDUSTRY_TEMPLATES: IndustryTemplate[] = [
	{
		id: 'realEstate',
		icon: 'Building2',
		moduleIds: [MODULES.p2p.id, MODULES.crm.id, MODULES.expenses.id],
	},
	{
		id: 'freelancer',
		icon: 'Briefcase',
		moduleIds: [MODULES.p2p.id, MODULES.invoicing.id, MODULES.expenses.id],
	},
	{
		id: 'medical',
		icon: 'Stethoscope',
		moduleIds: [MODULES.booking.id, MODULES.messaging.id, MODULES.crm.id],
	},
]

/** How many industry tags and features a card or the tree shows before "+N". */
export const VISIBLE_TAGS = 2
export const VISIBLE_FEATURES = 3
