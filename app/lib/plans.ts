/** The plans, shown as monthly gear allowances (docs/product.md, Limits and formats). */
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
