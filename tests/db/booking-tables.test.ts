import { describe, expect, test } from 'vitest'
import type { z } from 'zod'
import { listFreeMembers, listProviders, listServices, saveProviders, saveServices } from '#app/.server/booking/tables.ts'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { providersSaveSchema, servicesSaveSchema, servicesSaveSchemaIn } from '#app/lib/schemas/booking-tables.ts'
import { addMember, createBookingSetup, createUser } from './fixtures.ts'

/** The form as the browser posts it: every value text, the list as `rows[i].field`. */
function parse<S extends z.ZodType>(schema: S, rows: Record<string, unknown>[]) {
	return schema.safeParse({ rows }) as z.ZodSafeParseResult<z.output<S>>
}

async function appointment(orgId: string, serviceId: string, startsIn: string, status = 'confirmed') {
	await asSystem((trx) =>
		sql`insert into public.booking_appointments (organization_id, service_id, starts_at, ends_at, status, guest_name, guest_email)
			values (${orgId}, ${serviceId}, now() + ${startsIn}::interval, now() + ${startsIn}::interval + interval '30 minutes',
				${status}::public.appointment_status, 'Maria Lopez', 'maria@example.com')`.execute(trx),
	)
}

/** A service row of the save that asks no deposit. */
const NO_DEPOSIT = { depositKind: 'none' as const, depositAmount: null, depositAfterNoShows: null }

describe('the services table', () => {
	test('validates each value: no silent default for an unparsable one', () => {
		const bad = parse(servicesSaveSchema, [
			{ name: '', price: 'abc', duration: '4.5', color: 'blue', active: 'active' },
			{ name: 'Long', price: '-1', duration: '481', color: '#2563eb', active: 'active' },
			{ name: 'Precise', price: '1.234', duration: '', color: '#2563eb', active: 'maybe' },
		])
		expect(bad.success).toBe(false)
		const issues = bad.error!.issues.map((i) => `${i.path.join('.')}:${i.message}`).sort()
		expect(issues).toEqual(
			[
				'rows.0.name:serviceNameRequired',
				'rows.0.price:priceInvalid',
				'rows.0.duration:durationInvalid',
				'rows.0.color:colorInvalid',
				'rows.1.price:priceInvalid',
				'rows.1.duration:durationInvalid',
				// Every error of a row at once, the unparsable status included.
				'rows.2.active:activeInvalid',
				'rows.2.price:priceInvalid',
				'rows.2.duration:durationRequired',
			].sort(),
		)
		const good = parse(servicesSaveSchema, [
			{ name: ' Massage ', price: '45.5', duration: '60', color: '', active: 'inactive', description: '' },
		])
		expect(good.success && good.data.rows[0]).toMatchObject({
			name: 'Massage',
			price: '45.50',
			durationMinutes: 60,
			color: '#2563eb',
			isActive: false,
			description: null,
		})
		// Prices as es and pt-BR write them, or with a dollar sign; nine digits are too many.
		const written = parse(
			servicesSaveSchema,
			['45,50', '1.234,5', 'US$ 45', '$45.00', '999999999'].map((price) => ({
				name: 'S',
				price,
				duration: '30',
				color: '',
				active: 'active',
			})),
		)
		expect(written.success).toBe(false)
		expect(written.error!.issues.map((i) => `${i.path.join('.')}:${i.message}`)).toEqual(['rows.4.price:priceInvalid'])
		const accepted = parse(
			servicesSaveSchema,
			['45,50', '1.234,5', 'US$ 45', '$45.00'].map((price) => ({ name: 'S', price, duration: '30', color: '', active: 'active' })),
		)
		expect(accepted.data!.rows.map((r) => r.price)).toEqual(['45.50', '1234.50', '45.00', '45.00'])
		// "1.500" is one thousand five hundred as es and pt-BR write it; en refuses it.
		const grouped = [{ name: 'S', price: '1.500', duration: '30', color: '', active: 'active' }]
		expect(parse(servicesSaveSchemaIn('es'), grouped).data!.rows[0]!.price).toBe('1500.00')
		expect(parse(servicesSaveSchemaIn('pt-BR'), grouped).data!.rows[0]!.price).toBe('1500.00')
		expect(parse(servicesSaveSchemaIn('en'), grouped).success).toBe(false)
		// A price is written as an amount is: en's thousands commas, and es's decimal comma only.
		const en = [{ name: 'S', price: '1,500.25', duration: '30', color: '', active: 'active' }]
		expect(parse(servicesSaveSchemaIn('en'), en).data!.rows[0]!.price).toBe('1500.25')
		expect(parse(servicesSaveSchemaIn('es'), en).success).toBe(false)
		expect(parse(servicesSaveSchemaIn('es'), [{ ...grouped[0]!, price: '0,125' }]).success).toBe(false)
	})

	test('adds, edits and deletes; a service with upcoming appointments is refused, with the others untouched', async () => {
		const owner = await createUser('Services Owner')
		const added = parse(servicesSaveSchema, [
			{ name: 'Haircut', price: '30', duration: '45', color: '#16a34a', active: 'active', description: 'A cut' },
			{ name: 'Colour', price: '80.00', duration: '120', color: '#9333ea', active: 'active' },
		])
		expect(await saveServices(owner.userId, owner.orgId, added.data!.rows)).toEqual({ ok: true, inserted: 2, updated: 0, deleted: 0 })
		const [colour, haircut] = await listServices(owner.userId, owner.orgId)
		expect(haircut).toMatchObject({ name: 'Haircut', price: '30.00', durationMinutes: 45, isActive: true, description: 'A cut' })

		await appointment(owner.orgId, colour!.id, '2 days')
		await appointment(owner.orgId, haircut!.id, '-2 days', 'completed')
		const meta = (r: typeof haircut) => ({ id: r!.id, version: r!.version, fingerprint: r!.fingerprint })
		const refused = await saveServices(owner.userId, owner.orgId, [
			{
				...meta(haircut),
				deleted: true,
				name: '',
				description: null,
				price: '0.00',
				durationMinutes: 0,
				color: '',
				isActive: true,
				...NO_DEPOSIT,
			},
			{
				...meta(colour),
				deleted: true,
				name: '',
				description: null,
				price: '0.00',
				durationMinutes: 0,
				color: '',
				isActive: true,
				...NO_DEPOSIT,
			},
		])
		expect(refused).toEqual({ ok: false, rowErrors: { 1: { row: 'serviceHasUpcoming' } }, conflicts: {} })
		expect(await listServices(owner.userId, owner.orgId)).toHaveLength(2)

		// Deactivating it is fine; deleting the one with past appointments only asks first.
		const edited = parse(servicesSaveSchema, [
			{ ...meta(colour), name: 'Colour', price: '85.00', duration: '120', color: '#9333ea', active: 'inactive' },
			{ ...meta(haircut), deleted: true, name: 'Haircut', price: '30.00', duration: '45', color: '#16a34a', active: 'active' },
		])
		expect(edited.success).toBe(true)
		expect(await saveServices(owner.userId, owner.orgId, edited.data!.rows, { confirmed: false })).toMatchObject({
			ok: false,
			confirm: { deleted: 1, updated: 1 },
		})
		expect(await saveServices(owner.userId, owner.orgId, edited.data!.rows, { confirmed: true })).toEqual({
			ok: true,
			inserted: 0,
			updated: 1,
			deleted: 1,
		})
		expect(await listServices(owner.userId, owner.orgId)).toEqual([
			expect.objectContaining({ name: 'Colour', price: '85.00', isActive: false }),
		])
	})

	test("a forged id of another organization's service changes nothing", async () => {
		const owner = await createUser('Services Victim')
		const { serviceId } = await createBookingSetup(owner.orgId)
		const intruder = await createUser('Services Intruder')
		const [theirs] = await listServices(owner.userId, owner.orgId)
		const forged = {
			id: serviceId,
			version: theirs!.version,
			fingerprint: 'x',
			name: 'Hacked',
			description: null,
			price: '1.00',
			durationMinutes: 5,
			color: '#000000',
			isActive: false,
			...NO_DEPOSIT,
		}
		expect(await saveServices(intruder.userId, intruder.orgId, [{ ...forged, deleted: false }])).toEqual({
			ok: false,
			rowErrors: { 0: { row: 'rowNotFound' } },
			conflicts: {},
		})
		expect(await saveServices(intruder.userId, intruder.orgId, [{ ...forged, deleted: true }])).toEqual({
			ok: false,
			rowErrors: { 0: { row: 'rowNotFound' } },
			conflicts: {},
		})
		// Even naming the victim's organization: RLS hides its rows from a non-member.
		expect(await saveServices(intruder.userId, owner.orgId, [{ ...forged, deleted: false }])).toMatchObject({ ok: false })
		expect(await listServices(owner.userId, owner.orgId)).toEqual([expect.objectContaining({ name: 'Consultation', isActive: true })])
	})
})

describe("a service's deposit", () => {
	test('a fixed amount above 0 and at most the price, "after N no-shows" from 1 to 20; each mistake said under its field', () => {
		const row = (deposit: Record<string, string>) => ({ name: 'Cut', price: '40', duration: '30', color: '', active: 'active', ...deposit })
		const refused = parse(servicesSaveSchema, [
			row({ deposit: 'fixed' }),
			row({ deposit: 'fixed', depositAmount: '0' }),
			row({ deposit: 'fixed', depositAmount: '40.01' }),
			row({ deposit: 'fixed', depositAmount: 'ten' }),
			row({ deposit: 'full', depositAfterNoShows: '0' }),
			row({ deposit: 'fixed', depositAmount: '10', depositAfterNoShows: '21' }),
			row({ deposit: 'half' }),
		])
		expect(refused.error!.issues.map((i) => `${i.path.join('.')}:${i.message}`)).toEqual([
			'rows.0.depositAmount:depositAmountRequired',
			'rows.1.depositAmount:depositAmountInvalid',
			'rows.2.depositAmount:depositAbovePrice',
			'rows.3.depositAmount:depositAmountInvalid',
			'rows.4.depositAfterNoShows:depositNoShowsInvalid',
			'rows.5.depositAfterNoShows:depositNoShowsInvalid',
			'rows.6.deposit:depositKindInvalid',
		])
		const accepted = parse(servicesSaveSchemaIn('es'), [
			row({ deposit: 'fixed', depositAmount: '12,50', depositAfterNoShows: '2' }),
			row({ deposit: 'full', depositAmount: '99' }),
			row({ deposit: 'none', depositAmount: 'ignored', depositAfterNoShows: '3' }),
			row({}),
		])
		expect(accepted.data!.rows.map((r) => [r.depositKind, r.depositAmount, r.depositAfterNoShows])).toEqual([
			['fixed', '12.50', 2],
			['full', null, null],
			['none', null, null],
			['none', null, null],
		])
	})

	test('is saved with the service and read back; a row left alone is unchanged', async () => {
		const owner = await createUser('Deposit Owner')
		const added = parse(servicesSaveSchema, [
			{
				name: 'Colour',
				price: '80',
				duration: '90',
				color: '',
				active: 'active',
				deposit: 'fixed',
				depositAmount: '25',
				depositAfterNoShows: '2',
			},
			{ name: 'Cut', price: '30', duration: '30', color: '', active: 'active', deposit: 'full' },
		])
		expect(await saveServices(owner.userId, owner.orgId, added.data!.rows)).toMatchObject({ ok: true, inserted: 2 })
		const [colour, cut] = await listServices(owner.userId, owner.orgId)
		expect(colour).toMatchObject({ depositKind: 'fixed', depositAmount: '25.00', depositAfterNoShows: 2 })
		expect(cut).toMatchObject({ depositKind: 'full', depositAmount: null, depositAfterNoShows: null })
		// The edit form posts the loaded values back: nothing counts as changed.
		const again = parse(servicesSaveSchema, [
			{
				id: colour!.id,
				version: colour!.version,
				fingerprint: colour!.fingerprint,
				name: 'Colour',
				price: '80.00',
				duration: '90',
				color: colour!.color,
				active: 'active',
				deposit: 'fixed',
				depositAmount: '25.00',
				depositAfterNoShows: '2',
			},
		])
		expect(await saveServices(owner.userId, owner.orgId, again.data!.rows)).toMatchObject({ ok: true, updated: 0 })
		const none = parse(servicesSaveSchema, [
			{
				id: colour!.id,
				version: colour!.version,
				fingerprint: colour!.fingerprint,
				name: 'Colour',
				price: '80.00',
				duration: '90',
				color: colour!.color,
				active: 'active',
				deposit: 'none',
				depositAmount: '25.00',
			},
		])
		expect(await saveServices(owner.userId, owner.orgId, none.data!.rows)).toMatchObject({ ok: true, updated: 1 })
		expect((await listServices(owner.userId, owner.orgId))[0]).toMatchObject({ depositKind: 'none', depositAmount: null })
	})
})

describe('the providers table', () => {
	test('validates the avatar URL, the member and the display name', () => {
		const bad = parse(providersSaveSchema, [
			{ member: '', displayName: '', avatarUrl: 'not a url', active: 'active' },
			{ member: 'nope', displayName: 'X', avatarUrl: 'ftp://example.com/a.png', active: 'active' },
		])
		const issues = bad.error!.issues.map((i) => `${i.path.join('.')}:${i.message}`).sort()
		expect(issues).toEqual([
			'rows.0.avatarUrl:avatarUrlInvalid',
			'rows.0.member:memberRequired',
			'rows.1.avatarUrl:avatarUrlInvalid',
			'rows.1.member:memberInvalid',
		])
	})

	test('adds members who are not providers yet, the name prefilled; edits; the free members shrink', async () => {
		const owner = await createUser('Owner Person')
		const colleague = await createUser('Colleague Person')
		await addMember(owner.orgId, colleague.userId, 'member')
		expect((await listFreeMembers(owner.userId, owner.orgId)).map((m) => m.name).sort()).toEqual(['Colleague Person', 'Owner Person'])

		const input = parse(providersSaveSchema, [
			{ member: owner.userId, displayName: '', bio: 'Founder', avatarUrl: 'https://example.com/a.png', active: 'active' },
			{ member: colleague.userId, displayName: 'Col', avatarUrl: '', active: 'inactive' },
		])
		expect(await saveProviders(owner.userId, owner.orgId, input.data!.rows)).toEqual({ ok: true, inserted: 2, updated: 0, deleted: 0 })
		const providers = await listProviders(owner.userId, owner.orgId)
		expect(providers.map((p) => [p.displayName, p.member, p.isActive])).toEqual([
			['Col', 'Colleague Person', false],
			['Owner Person', 'Owner Person', true],
		])
		expect(await listFreeMembers(owner.userId, owner.orgId)).toEqual([])

		// A member already a provider, or twice in a batch, is refused.
		expect(await saveProviders(owner.userId, owner.orgId, input.data!.rows)).toMatchObject({
			ok: false,
			rowErrors: { 0: { member: 'memberNotFree' }, 1: { member: 'memberNotFree' } },
		})

		const col = providers[0]!
		const edit = parse(providersSaveSchema, [
			{
				id: col.id,
				version: col.version,
				fingerprint: col.fingerprint,
				displayName: 'Colleague',
				bio: 'Hi',
				avatarUrl: '',
				active: 'active',
			},
		])
		expect(await saveProviders(colleague.userId, owner.orgId, edit.data!.rows)).toEqual({ ok: true, inserted: 0, updated: 1, deleted: 0 })
		expect((await listProviders(owner.userId, owner.orgId))[0]).toMatchObject({
			displayName: 'Colleague',
			bio: 'Hi',
			isActive: true,
			userId: colleague.userId,
		})

		// Never deleted (Inactive is the way), even confirmed.
		const [saved] = await listProviders(owner.userId, owner.orgId)
		const remove = parse(providersSaveSchema, [
			{
				id: saved!.id,
				version: saved!.version,
				fingerprint: saved!.fingerprint,
				displayName: 'Colleague',
				bio: 'Hi',
				avatarUrl: '',
				active: 'active',
				deleted: true,
			},
		])
		expect(await saveProviders(owner.userId, owner.orgId, remove.data!.rows, { confirmed: true })).toMatchObject({
			ok: false,
			rowErrors: { 0: { row: 'providerNotDeletable' } },
		})
		expect((await listProviders(owner.userId, owner.orgId)).map((p) => p.displayName)).toEqual(['Colleague', 'Owner Person'])
	})

	test('a forged id or member of another organization changes nothing', async () => {
		const owner = await createUser('Providers Victim')
		const { providerId } = await createBookingSetup(owner.orgId)
		const intruder = await createUser('Providers Intruder')
		const [theirs] = await listProviders(owner.userId, owner.orgId)
		const row = {
			version: theirs!.version,
			fingerprint: 'x',
			member: null,
			displayName: 'Hacked',
			bio: null,
			avatarUrl: null,
			isActive: false,
			deleted: false,
		}
		expect(await saveProviders(intruder.userId, intruder.orgId, [{ ...row, id: providerId }])).toEqual({
			ok: false,
			rowErrors: { 0: { row: 'rowNotFound' } },
			conflicts: {},
		})
		// The victim's owner as a new provider of the intruder's organization: not a member there.
		expect(await saveProviders(intruder.userId, intruder.orgId, [{ ...row, id: null, version: null, member: owner.userId }])).toMatchObject(
			{
				ok: false,
				rowErrors: { 0: { member: 'memberNotFree' } },
			},
		)
		expect(await listProviders(owner.userId, owner.orgId)).toEqual([expect.objectContaining({ displayName: 'Dr. Rivera', isActive: true })])
		expect(await listProviders(intruder.userId, intruder.orgId)).toEqual([])
	})
})
