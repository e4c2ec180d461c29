/**
 * Time zones end to end (docs/product.md, Public booking; issue 53 items 2–4): a visitor who books
 * in their own zone reads their time, named in words, in every mail of the booking (made, moved,
 * cancelled), with the business's time beside it when the zones differ; staff read the
 * organization's time; every time is written in the language's one format (12-hour in en, 24-hour
 * in es and pt-BR). A new organization takes the zone its owner signed up with.
 */
import { describe, expect, test } from 'vitest'
import { signUp } from '#app/.server/auth/local.ts'
import {
	cancelPublicBooking,
	createPublicBooking,
	getManagedBooking,
	reschedulePublicBooking,
} from '#app/.server/booking/public/bookings.ts'
import { getPublicOrganization } from '#app/.server/booking/public/organization.ts'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { createOrganization } from '#app/.server/organizations/current.ts'
import { at, CATALOGUE, createBookingSetup, createUser, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

type World = { owner: TestUser; slug: string; serviceId: string; providerId: string }

/** An organization in New York, open all day every day, whose staff are told of bookings by mail. */
async function world(): Promise<World> {
	const owner = await createUser('Zone Studio')
	const { serviceId, providerId } = await createBookingSetup(owner.orgId)
	await asSystem(async (trx) => {
		await sql`update public.booking_settings set min_advance_hours = 0, max_advance_days = 90, timezone = 'America/New_York',
			business_hours = (select jsonb_object_agg(d, '{"start": "00:00", "end": "24:00", "enabled": true}'::jsonb)
				from unnest(array['monday','tuesday','wednesday','thursday','friday','saturday','sunday']) d)
			where organization_id = ${owner.orgId}`.execute(trx)
		await trx
			.insertInto('organization_modules')
			.values({ organization_id: owner.orgId, module_id: CATALOGUE.modules.booking, default_visibility: 'any', email_notifications: true })
			.execute()
	})
	const { slug } = await asSystem((trx) =>
		trx.selectFrom('organizations').select('slug').where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
	)
	return { owner, slug, serviceId, providerId }
}

/** A date (UTC) `n` days from today. */
function day(n: number) {
	const d = new Date()
	d.setUTCHours(0, 0, 0, 0)
	d.setUTCDate(d.getUTCDate() + n)
	return d.toISOString().slice(0, 10)
}

const plus30 = (instant: string) => new Date(Date.parse(instant) + 30 * 60_000).toISOString()
const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}@guest.example`

/** A wall-clock time as a reader of the language expects it, computed apart from the app: "7:00 AM" (en), "07:00" (es, pt-BR). */
function clock(instant: string, zone: string, language: 'en' | 'es') {
	const options: Intl.DateTimeFormatOptions =
		language === 'en' ? { hour: 'numeric', minute: '2-digit', hour12: true } : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
	return new Intl.DateTimeFormat(language === 'en' ? 'en-US' : 'es', { ...options, timeZone: zone })
		.format(new Date(instant))
		.replace(/\s/g, ' ')
}

async function book(w: World, start: string, guest: { email: string; language: string; timezone?: string }) {
	const org = (await getPublicOrganization(w.slug))!
	const booked = await createPublicBooking(
		org,
		{
			serviceId: w.serviceId,
			providerId: w.providerId,
			start,
			contact: { name: 'Lee Visitor', email: guest.email },
			timezone: guest.timezone,
		},
		guest.language,
	)
	if (!booked.ok) throw new Error(booked.code)
	await drainMail()
	return booked
}

/** The mails to `to` once `count` of them arrived (staff notices leave in the background). */
async function settled(to: string, count: number) {
	for (let i = 0; i < 50; i++) {
		await drainMail()
		const mails = await mailsTo(to)
		if (mails.length >= count) return mails
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	return mailsTo(to)
}

describe("the visitor's zone travels with the booking", () => {
	test('every mail of a booking made in Los Angeles for a business in New York says the visitor’s time and the business’s, in words; staff read New York time', async () => {
		const w = await world()
		const email = uniqueEmail('la')
		const start = at(day(21), '15:00')
		const booked = await book(w, start, { email, language: 'en', timezone: 'America/Los_Angeles' })
		expect((await getManagedBooking(booked.token))?.guestTimezone).toBe('America/Los_Angeles')

		const la = (instant: string) => clock(instant, 'America/Los_Angeles', 'en')
		const ny = (instant: string) => clock(instant, 'America/New_York', 'en')
		const both = (s: string) =>
			`${la(s)}–${la(plus30(s))} Pacific Time (Los Angeles) — ${ny(s)}–${ny(plus30(s))} at the business, Eastern Time (New York)`
		const [made] = await mailsTo(email)
		expect(made!.text).toContain(both(start))
		expect(made!.text).not.toContain('America/')

		// Moved and cancelled from the manage link (in the language of that page): still the visitor's zone.
		const later = at(day(22), '18:00')
		expect(await reschedulePublicBooking(booked.token, w.providerId, later, 'en')).toEqual({ ok: true })
		expect(await cancelPublicBooking(booked.token, 'en')).toEqual({ ok: true })
		await drainMail()
		const [, moved, cancelled] = await mailsTo(email)
		expect(moved!.text).toContain(both(later))
		expect(cancelled!.text).toContain(both(later))

		// The owner's notices: New York time, named, and nothing of Los Angeles.
		const notices = await settled(w.owner.email, 3)
		expect(notices).toHaveLength(3)
		expect(notices[0]!.subject).toContain(`${ny(start)} Eastern Time (New York)`)
		for (const notice of notices) expect(`${notice.subject}\n${notice.text}`).not.toContain('Pacific')
	})

	test('in Spanish the times are 24-hour, the business’s too; a visitor in the business’s zone reads one time', async () => {
		const w = await world()
		const start = at(day(23), '15:00')
		const spanish = uniqueEmail('es')
		await book(w, start, { email: spanish, language: 'es', timezone: 'America/Los_Angeles' })
		const [mail] = await mailsTo(spanish)
		const la = clock(start, 'America/Los_Angeles', 'es')
		const ny = clock(start, 'America/New_York', 'es')
		expect(la).toMatch(/^\d{2}:\d{2}$/)
		expect(mail!.text).toContain(`${la}–${clock(plus30(start), 'America/Los_Angeles', 'es')} `)
		expect(mail!.text).toContain(`— ${ny}–${clock(plus30(start), 'America/New_York', 'es')} en el horario del negocio, `)
		expect(mail!.text).not.toMatch(/\b(AM|PM)\b/)

		const local = uniqueEmail('ny')
		await book(w, at(day(23), '17:00'), { email: local, language: 'en', timezone: 'America/New_York' })
		const [own] = await mailsTo(local)
		expect(own!.text).toContain('Eastern Time (New York)')
		expect(own!.text).not.toContain('at the business')
	})
})

describe("a new organization's zone", () => {
	test('sign-up stores the zone the browser reported; one outside the list leaves UTC and refuses nothing', async () => {
		const zoneOf = async (userId: string) =>
			(
				await asSystem((trx) =>
					trx
						.selectFrom('booking_settings as b')
						.innerJoin('organization_members as m', 'm.organization_id', 'b.organization_id')
						.select('b.timezone')
						.where('m.user_id', '=', userId)
						.executeTakeFirstOrThrow(),
				)
			).timezone
		const paulista = await signUp({
			email: uniqueEmail('sp'),
			password: 'correct horse battery',
			fullName: 'Ana SP',
			language: 'pt-BR',
			timezone: 'America/Sao_Paulo',
		})
		expect(paulista.ok && (await zoneOf(paulista.user.userId))).toBe('America/Sao_Paulo')
		const odd = await signUp({
			email: uniqueEmail('odd'),
			password: 'correct horse battery',
			fullName: 'Odd Zone',
			timezone: 'Mars/Olympus',
		})
		expect(odd.ok && (await zoneOf(odd.user.userId))).toBe('UTC')
	})

	test('onboarding creates the organization in the zone given', async () => {
		const user = await createUser('Onboarded')
		// Without an organization, as after leaving the only one.
		await asSystem((trx) => trx.deleteFrom('organization_members').where('user_id', '=', user.userId).execute())
		const created = await createOrganization(user.userId, 'Lisbon Studio', 'Europe/Lisbon')
		expect(created.ok).toBe(true)
		const { timezone } = await asSystem((trx) =>
			trx
				.selectFrom('booking_settings')
				.select('timezone')
				.where('organization_id', '=', created.ok ? created.id : '')
				.executeTakeFirstOrThrow(),
		)
		expect(timezone).toBe('Europe/Lisbon')
	})
})
