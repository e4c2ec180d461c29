/**
 * The plan an organization has (organizations.plan): `free` for every new organization (its
 * starting gears, given once, nothing charged), or one of the plans below once billing sets it
 * (docs/decisions/039-what-the-catalogue-sells.md).
 */
export type PlanId = 'free' | Plan['id']

/** The plan every organization starts on: 15,000 gears, given once when it is created. */
export const FREE_PLAN = { id: 'free', startingGears: 15000 } as const

/** The plan of a stored value; an unknown one reads as the free plan. */
export function planOf(value: string): PlanId {
	return value === 'starter' || value === 'professional' || value === 'enterprise' ? value : 'free'
}

/**
 * The plans that add gears every month (docs/product.md, Limits and formats). Not sold online
 * yet: the plans page offers to get in touch (docs/product.md, Plans).
 */
export type Plan = {
	id: 'starter' | 'professional' | 'enterprise'
	gearsPerMonth: number
	price: number
	tier: 'basic' | 'pro' | 'enterprise'
	isPopular: boolean
	features: string[]
}

export const plans: Plan[] = [
	{ id: 'starter', gearsPerMonth: 5000, price: 29, tier: 'basic', isPopular: false, features: ['tracking', 'clients', 'email'] },
	{
		id: 'professional',
		gearsPerMonth: 15000,
		price: 79,
		tier: 'pro',
		isPopular: true,
		features: ['tracking', 'clients', 'reports', 'booking', 'priority'],
	},
	{
		id: 'enterprise',
		gearsPerMonth: 50000,
		price: 199,
		tier: 'enterprise',
		isPopular: false,
		features: ['everything', 'integrations', 'support', 'sla'],
	},
]

/** The mail a "Contact us" button opens: to the installation's owner, about one plan. */
export function contactHref(email: string, subject: string) {
	return `mailto:${email}?subject=${encodeURIComponent(subject)}`
}
