/**
 * The shell's question about a zone nobody chose (docs/product.md, Time zones; issue 53 item 3):
 * an organization made without a zone from the sign-up form (Google sign-up, older sign-ups)
 * starts in UTC, unconfirmed, so its owner is asked; a zone given at sign-up or onboarding,
 * changed anywhere, saved in Settings, or kept in answer to the question, is confirmed and the
 * question stops.
 */
import { describe, expect, test } from 'vitest'
import { signUp } from '#app/.server/auth/local.ts'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { createOrganization, listMemberships } from '#app/.server/organizations/current.ts'
import { confirmZone, getOrganizationSettings, updateOrganization } from '#app/.server/organizations/settings.ts'
import { createUser } from './fixtures.ts'
import { useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}@owner.example`

async function zoneOf(organizationId: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('booking_settings')
			.select(['timezone', 'timezone_confirmed'])
			.where('organization_id', '=', organizationId)
			.executeTakeFirstOrThrow(),
	)
}

async function organizationOf(userId: string) {
	const { memberships } = await listMemberships(userId)
	return memberships[0]!
}

describe('a zone nobody chose', () => {
	test('an owner who signed up without a zone (Google sign-up) is asked; one who gave one, UTC included, is not', async () => {
		const google = await createUser('Google Owner')
		expect(await zoneOf(google.orgId)).toEqual({ timezone: 'UTC', timezone_confirmed: false })
		expect(await organizationOf(google.userId)).toMatchObject({ timezone: 'UTC', timezoneConfirmed: false })

		for (const [zone, expected] of [
			['America/Los_Angeles', { timezone: 'America/Los_Angeles', timezone_confirmed: true }],
			['UTC', { timezone: 'UTC', timezone_confirmed: true }],
			// Not one of the list: UTC stays, and the owner is asked.
			['Mars/Olympus', { timezone: 'UTC', timezone_confirmed: false }],
		] as const) {
			const made = await signUp({ email: uniqueEmail('zone'), password: 'correct horse battery', fullName: 'Zone Owner', timezone: zone })
			if (!made.ok) throw new Error(made.code)
			const organization = await organizationOf(made.user.userId)
			expect(await zoneOf(organization.id), zone).toEqual(expected)
		}
	})

	test('the signed-in shell carries the confirmation, in its one statement', async () => {
		const google = await createUser('Shell Owner')
		const shell = await asSystem(async (trx) => {
			const { rows } = await sql<{ shell: { memberships: Array<{ id: string; timezone_confirmed: boolean }> } }>`
				select private.signed_in_shell(null, ${google.userId}::uuid, null, '7 days', '1 hour') as shell`.execute(trx)
			return rows[0]!.shell
		})
		expect(shell.memberships.find((m) => m.id === google.orgId)?.timezone_confirmed).toBe(false)
		await confirmZone(google.userId, google.orgId, null)
		const again = await asSystem(async (trx) => {
			const { rows } = await sql<{ shell: { memberships: Array<{ id: string; timezone_confirmed: boolean }> } }>`
				select private.signed_in_shell(null, ${google.userId}::uuid, null, '7 days', '1 hour') as shell`.execute(trx)
			return rows[0]!.shell
		})
		expect(again.memberships.find((m) => m.id === google.orgId)?.timezone_confirmed).toBe(true)
	})

	test('answering the question: a zone of the list, or keeping UTC', async () => {
		const chooser = await createUser('Chooser')
		await confirmZone(chooser.userId, chooser.orgId, 'America/Sao_Paulo')
		expect(await zoneOf(chooser.orgId)).toEqual({ timezone: 'America/Sao_Paulo', timezone_confirmed: true })

		const keeper = await createUser('Keeper')
		await confirmZone(keeper.userId, keeper.orgId, null)
		expect(await zoneOf(keeper.orgId)).toEqual({ timezone: 'UTC', timezone_confirmed: true })
	})

	test('a member of another organization answers nothing for it (row level security)', async () => {
		const owner = await createUser('Owner A')
		const stranger = await createUser('Stranger')
		await confirmZone(stranger.userId, owner.orgId, 'Europe/Lisbon')
		expect(await zoneOf(owner.orgId)).toEqual({ timezone: 'UTC', timezone_confirmed: false })
	})

	test('a zone changed anywhere, or saved as shown in Settings, is a choice', async () => {
		const booking = await createUser('Booking Settings')
		// The booking settings screen writes the zone directly, as the member.
		await asUser(booking.userId, (trx) =>
			trx.updateTable('booking_settings').set({ timezone: 'Europe/Madrid' }).where('organization_id', '=', booking.orgId).execute(),
		)
		expect(await zoneOf(booking.orgId)).toEqual({ timezone: 'Europe/Madrid', timezone_confirmed: true })

		const settings = await createUser('Settings Owner')
		const current = await getOrganizationSettings(settings.userId, settings.orgId)
		if (!current) throw new Error('no settings')
		const saved = await updateOrganization(settings.userId, settings.orgId, {
			name: current.name,
			description: current.description,
			slug: current.slug,
			timezone: 'UTC',
		})
		expect(saved).toEqual({ ok: true })
		expect(await zoneOf(settings.orgId)).toEqual({ timezone: 'UTC', timezone_confirmed: true })
	})

	test('onboarding with a zone confirms it; without one (a script), the owner is asked', async () => {
		for (const [zone, confirmed] of [
			['UTC', true],
			[undefined, false],
		] as const) {
			const user = await createUser('Onboarded')
			await asSystem((trx) => trx.deleteFrom('organization_members').where('user_id', '=', user.userId).execute())
			const created = await createOrganization(user.userId, 'New Studio', zone)
			if (!created.ok) throw new Error(created.code)
			expect((await zoneOf(created.id)).timezone_confirmed, String(zone)).toBe(confirmed)
		}
	})
})
