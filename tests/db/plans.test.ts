/**
 * The plan an organization has (organizations.plan; docs/product.md, Plans): a new organization
 * is on the free plan of its 15,000 starting gears; only billing (the system) may change it; the
 * plans screen offers a mail to the installation's owner, or says that plans are not sold online.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, asUser } from '#app/.server/db/index.ts'
import { plansPageView } from '#app/.server/marketplace/plans.ts'
import { listMemberships, memberOf } from '#app/.server/organizations/current.ts'
import { contactHref, FREE_PLAN } from '#app/lib/plans.ts'
import { createUser, gearBalance, refusal } from './fixtures.ts'

/** The signed-in member of their first organization, as the screens get it. */
async function currentMember(userId: string) {
	const read = await listMemberships(userId)
	const member = memberOf({ userId, email: 'plan@example.test' }, read, read.memberships[0])
	if (!member) throw new Error('no membership')
	return member
}

describe('the plan of an organization', () => {
	test('a new organization is on the free plan, with its starting gears given once', async () => {
		const owner = await createUser('Plan Owner')
		const row = await asUser(owner.userId, (trx) =>
			trx.selectFrom('organizations').select('plan').where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
		)
		expect(row.plan).toBe('free')
		expect(await gearBalance(owner.orgId)).toMatchObject({ owned: FREE_PLAN.startingGears, remaining: FREE_PLAN.startingGears, rows: 1 })
	})

	test('an owner cannot change the plan (only billing will); an unknown plan cannot be stored', async () => {
		const owner = await createUser('Plan Owner')
		expect(
			await refusal(
				asUser(owner.userId, (trx) => trx.updateTable('organizations').set({ plan: 'enterprise' }).where('id', '=', owner.orgId).execute()),
			),
		).toBe('42501')
		expect(
			await refusal(asSystem((trx) => trx.updateTable('organizations').set({ plan: 'platinum' }).where('id', '=', owner.orgId).execute())),
		).toBe('23514')
		const row = await asSystem((trx) =>
			trx.selectFrom('organizations').select('plan').where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
		)
		expect(row.plan).toBe('free')
	})

	test('the plans screen reads the stored plan, the balance and the contact address, or none', async () => {
		const owner = await createUser('Plan Owner')
		const member = await currentMember(owner.userId)
		expect(await plansPageView(member, null)).toEqual({
			plan: 'free',
			organizationName: member.organization.name,
			gearsRemaining: 15000,
			contactEmail: null,
		})
		await asSystem((trx) => trx.updateTable('organizations').set({ plan: 'professional' }).where('id', '=', owner.orgId).execute())
		expect(await plansPageView(member, 'owner@example.test')).toMatchObject({ plan: 'professional', contactEmail: 'owner@example.test' })
	})

	test('"Contact us" is a mail to the address, its subject encoded', () => {
		expect(contactHref('owner@example.test', 'The Professional plan for Ana & Co')).toBe(
			'mailto:owner@example.test?subject=The%20Professional%20plan%20for%20Ana%20%26%20Co',
		)
	})
})
