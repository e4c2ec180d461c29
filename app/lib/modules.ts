/**
 * Static parts of the marketplace (docs/product.md, Marketplace and modules): the registry of the
 * catalogue's modules as code knows them, who may see a module, and the three industry templates
 * with the catalogue modules each one bundles. Template names and descriptions are translated
 * (marketplace.json, templates).
 */

/** A catalogue upgrade as code refers to it: its fixed id and its catalogue (English) name. */
export type CatalogueUpgradeIdentity = { id: string; name: string }

/**
 * A catalogue module as code refers to it: its fixed id, its `feature_type`, its catalogue
 * (English) name, and the upgrades that code refers to.
 */
export type CatalogueModuleIdentity = {
	id: string
	featureType: string
	name: string
	upgrades: Record<string, CatalogueUpgradeIdentity>
}

/**
 * The one registry of module identities: the rows of supabase/seed.sql that code names, by id,
 * feature type or name. Server code (SQL) and the screens import it; tests/db/catalogue-registry.test.ts
 * checks every entry against the catalogue rows in the database, so the two cannot drift.
 */
export const MODULES = {
	p2p: {
		id: 'b0000000-0000-4000-8000-000000000001',
		featureType: 'transactions',
		name: 'P2P Transaction Tracking',
		upgrades: {
			/** The email upgrade: its dialog and card offer the mailbox connectors (docs/product.md, Integrations). */
			email: { id: 'c0000000-0000-4000-8000-000000000001', name: 'P2P Tracking - Email' },
		},
	},
	crm: { id: 'b0000000-0000-4000-8000-000000000002', featureType: 'clients', name: 'Clients CRM', upgrades: {} },
	booking: { id: 'b0000000-0000-4000-8000-000000000003', featureType: 'booking', name: 'Appointment Booking', upgrades: {} },
	reports: { id: 'b0000000-0000-4000-8000-000000000004', featureType: 'reports', name: 'Reports & Analytics', upgrades: {} },
	invoicing: { id: 'b0000000-0000-4000-8000-000000000005', featureType: 'invoicing', name: 'Invoicing', upgrades: {} },
	messaging: { id: 'b0000000-0000-4000-8000-000000000006', featureType: 'messaging', name: 'Reminders & Messaging', upgrades: {} },
	inventory: { id: 'b0000000-0000-4000-8000-000000000007', featureType: 'inventory', name: 'Inventory', upgrades: {} },
	loyalty: { id: 'b0000000-0000-4000-8000-000000000008', featureType: 'marketing', name: 'Loyalty & Rewards', upgrades: {} },
	expenses: { id: 'b0000000-0000-4000-8000-000000000009', featureType: 'finance', name: 'Expense Tracking', upgrades: {} },
	automation: { id: 'b0000000-0000-4000-8000-000000000010', featureType: 'automation', name: 'Workflow Automation', upgrades: {} },
} as const satisfies Record<string, CatalogueModuleIdentity>

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
