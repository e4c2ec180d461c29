/**
 * Static parts of the marketplace (docs/product.md, Marketplace and modules): who may see a
 * module, and the three industry templates with the catalogue modules (supabase/seed.sql) each
 * one bundles. Template names and descriptions are translated (marketplace.json, templates).
 */
export const MODULE_VISIBILITIES = ['any', 'manager', 'administrator', 'owner'] as const
export type ModuleVisibility = (typeof MODULE_VISIBILITIES)[number]

export const DEFAULT_MODULE_SETTINGS = { visibility: 'any', emailNotifications: true } as const

export type IndustryTemplate = { id: 'realEstate' | 'freelancer' | 'medical'; icon: 'Building2' | 'Briefcase' | 'Stethoscope'; moduleIds: string[] }

export const INDUSTRY_TEMPLATES: IndustryTemplate[] = [
	{
		id: 'realEstate',
		icon: 'Building2',
		moduleIds: ['b0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000009'],
	},
	{
		id: 'freelancer',
		icon: 'Briefcase',
		moduleIds: ['b0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000005', 'b0000000-0000-4000-8000-000000000009'],
	},
	{
		id: 'medical',
		icon: 'Stethoscope',
		moduleIds: ['b0000000-0000-4000-8000-000000000003', 'b0000000-0000-4000-8000-000000000006', 'b0000000-0000-4000-8000-000000000002'],
	},
]

/** How many industry tags and features a card or the tree shows before "+N". */
export const VISIBLE_TAGS = 2
export const VISIBLE_FEATURES = 3
