/**
 * The plans screen's view model (docs/product.md, Plans): the plan the organization has
 * (organizations.plan), its gears, and where to ask for more while plans are not sold online.
 */
import { planOf, type PlanId } from '#app/lib/plans.ts'
import { asUser } from '../db/index.ts'
import { env } from '../env.ts'
import type { CurrentMember } from '../organizations/current.ts'

export type PlansPageView = {
	plan: PlanId
	organizationName: string
	gearsRemaining: number
	/** The installation owner's address for "Contact us" (CONTACT_EMAIL), or null: then a sentence, no button. */
	contactEmail: string | null
}

/**
 * What the plans screen shows: the organization's own plan as stored, its balance, and the
 * contact address (`contactEmail`, the setting by default) that stands in for billing.
 */
export async function plansPageView(
	member: CurrentMember,
	contactEmail: string | null = env().CONTACT_EMAIL ?? null,
): Promise<PlansPageView> {
	const row = await asUser(member.user.userId, (trx) =>
		trx.selectFrom('organizations').select('plan').where('id', '=', member.organization.id).executeTakeFirstOrThrow(),
	)
	return {
		plan: planOf(row.plan),
		organizationName: member.organization.name,
		gearsRemaining: member.organization.gearsRemaining,
		contactEmail,
	}
}
