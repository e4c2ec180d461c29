/**
 * Realistic data for the demo organization (embedded database only): a year of payments across
 * every method and category, 40 clients, a booking setup with 3 services, 2 providers with their
 * hours and 20 appointments in every status, and the booking module activated (paid from the
 * organization's gears, with its ledger row). Deterministic: the same seed gives the same data,
 * relative to today. Runs inside the caller's asSystem transaction, in a handful of statements.
 */
import { MODULES } from '#app/lib/modules.ts'
import { PAYMENT_METHODS, TRANSACTION_CATEGORIES } from '#app/lib/schemas/transactions.ts'
import { sql, type Tx } from './index.ts'
import type { AppointmentStatus, ClientStatus, PaymentMethod, TransactionCategory } from './types.ts'

const BOOKING_MODULE_ID = MODULES.booking.id
const TIMEZONE = 'America/New_York'

const FIRST_NAMES = [
	'Olivia',
	'Liam',
	'Sofia',
	'Mateo',
	'Emma',
	'Noah',
	'Isabella',
	'Lucas',
	'Camila',
	'Ethan',
	'Valentina',
	'Daniel',
	'Mia',
	'Gabriel',
	'Ava',
	'Samuel',
	'Lucia',
	'Benjamin',
	'Chloe',
	'David',
	'Grace',
	'Diego',
	'Hannah',
	'Rafael',
	'Zoe',
	'Marcus',
	'Leah',
	'Andre',
	'Priya',
	'Kenji',
]
const LAST_NAMES = [
	'Johnson',
	'Garcia',
	'Martinez',
	'Silva',
	'Nguyen',
	'Brown',
	'Oliveira',
	'Rodriguez',
	'Kim',
	'Patel',
	'Williams',
	'Santos',
	'Lopez',
	'Anderson',
	'Costa',
	'Thompson',
	'Hernandez',
	'Clark',
	'Pereira',
	'Walker',
]
const COMPANIES = [
	'Brightside Dental',
	'Harbor Realty',
	'Lumen Design Co.',
	'Northwind Fitness',
	'Casa Verde Catering',
	'Pixel & Pine',
	'Summit Legal',
	'Blue Oak Builders',
	'Greenleaf Yoga',
	'Atlas Consulting',
]
const EMAIL_DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'proton.me']
const SERVICES_SOLD = [
	'Website update',
	'Monthly retainer',
	'Consultation',
	'Logo design',
	'Photo session',
	'Bookkeeping',
	'Event deposit',
	'Coaching session',
	'Social media package',
	'Repair work',
	'Tutoring',
	'Catering balance',
]
const METHODS = PAYMENT_METHODS
const CATEGORIES = TRANSACTION_CATEGORIES
const EXTERNAL_PREFIX: Record<PaymentMethod, string> = {
	Zelle: 'ZL',
	Venmo: 'VM',
	CashApp: 'CA',
	PayPal: 'PP',
	'Wire Transfer': 'WT',
	Other: 'OT',
}

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function prng(seed: number) {
	let a = seed >>> 0
	return () => {
		a = (a + 0x6d2b79f5) >>> 0
		let t = a
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

function isoDate(d: Date) {
	return d.toISOString().slice(0, 10)
}

function addDays(d: Date, days: number) {
	const copy = new Date(d)
	copy.setUTCDate(copy.getUTCDate() + days)
	return copy
}

const PAST_FIRST: readonly AppointmentStatus[] = ['completed', 'no_show', 'cancelled']
const UPCOMING_FIRST: readonly AppointmentStatus[] = ['confirmed', 'pending']

export async function seedDemoData(trx: Tx, orgId: string, ownerId: string): Promise<void> {
	const random = prng(20261122)
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
	const weighted = <T>(entries: [T, number][]): T => {
		let r = random() * entries.reduce((sum, [, w]) => sum + w, 0)
		for (const [value, weight] of entries) if ((r -= weight) < 0) return value
		return entries[entries.length - 1]![0]
	}
	const today = new Date()
	today.setUTCHours(0, 0, 0, 0)

	// Clients: 40 distinct names.
	const names = new Set<string>()
	while (names.size < 40) names.add(`${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`)
	const clientRows = [...names].map((name, i) => {
		const [first, last] = name.toLowerCase().split(' ')
		const status: ClientStatus = weighted([
			['active', 80],
			['inactive', 12],
			['pending', 8],
		])
		return {
			organization_id: orgId,
			user_id: ownerId,
			name,
			email: i % 9 === 4 ? null : `${first}.${last}${i % 3 === 0 ? Math.floor(random() * 90 + 10) : ''}@${pick(EMAIL_DOMAINS)}`,
			phone: i % 7 === 3 ? null : `(555) ${String(Math.floor(random() * 900 + 100))}-${String(Math.floor(random() * 9000 + 1000))}`,
			company: random() < 0.45 ? pick(COMPANIES) : null,
			status,
			created_at: addDays(today, -Math.floor(random() * 400) - 20),
		}
	})
	const clients = await trx.insertInto('clients').values(clientRows).returning('id').execute()

	// 240 payments over the last 12 months; the first 24 cover every method and category pair.
	const transactionRows = Array.from({ length: 240 }, (_, i) => {
		const method =
			i < 24
				? METHODS[i % 6]!
				: weighted<PaymentMethod>([
						['Zelle', 35],
						['Venmo', 22],
						['CashApp', 15],
						['PayPal', 15],
						['Wire Transfer', 8],
						['Other', 5],
					])
		const category =
			i < 24
				? CATEGORIES[Math.floor(i / 6)]!
				: weighted<TransactionCategory>([
						['matched', 55],
						['pending', 15],
						['unmatched', 20],
						['review', 10],
					])
		const base = weighted([
			[40, 30],
			[120, 35],
			[350, 25],
			[1200, 10],
		])
		const amount = (Math.round(base * (0.6 + random() * 0.8)) + (random() < 0.5 ? 0 : Math.floor(random() * 100) / 100)).toFixed(2)
		const client = category === 'unmatched' && random() < 0.6 ? null : pick(clients).id
		const received = addDays(today, -Math.floor(random() * 365))
		const reference = Math.floor(random() * 36 ** 8)
			.toString(36)
			.toUpperCase()
			.padStart(8, '0')
		return {
			organization_id: orgId,
			user_id: ownerId,
			client_id: client,
			external_id: `${EXTERNAL_PREFIX[method]}-${reference}`,
			amount,
			date_received: isoDate(received),
			category,
			payment_method: method,
			description: `${pick(SERVICES_SOLD)}${random() < 0.4 ? ` - invoice #${1000 + i}` : ''}`,
			created_at: new Date(Math.min(Date.now(), received.getTime() + (8 + random() * 12) * 3_600_000)),
		}
	})
	await trx.insertInto('transactions').values(transactionRows).execute()

	// Booking: settings, 3 services, 2 providers with their hours.
	const weekdays = (start: string, end: string, days: string[]) =>
		JSON.stringify(
			Object.fromEntries(
				['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
					day,
					{ start, end, enabled: days.includes(day) },
				]),
			),
		)
	// The organization is open Monday to Saturday, 09:00–18:00: each provider's own hours narrow that.
	await trx
		.updateTable('booking_settings')
		.set({
			timezone: TIMEZONE,
			buffer_minutes: 10,
			min_advance_hours: 2,
			max_advance_days: 45,
			business_hours: weekdays('09:00', '18:00', ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']),
		})
		.where('organization_id', '=', orgId)
		.execute()
	const services = await trx
		.insertInto('booking_services')
		.values([
			{
				organization_id: orgId,
				name: 'Initial Consultation',
				description: 'A first conversation to understand your goals.',
				price: '45.00',
				duration_minutes: 30,
				color: '#2563eb',
			},
			{
				organization_id: orgId,
				name: 'Follow-up Session',
				description: 'Review progress and plan the next steps.',
				price: '75.00',
				duration_minutes: 45,
				color: '#16a34a',
			},
			{
				organization_id: orgId,
				name: 'Extended Session',
				description: 'A full hour for in-depth work.',
				price: '120.00',
				duration_minutes: 60,
				color: '#9333ea',
			},
		])
		.returning(['id', 'price', 'duration_minutes'])
		.execute()
	const providers = await trx
		.insertInto('booking_providers')
		.values([
			{
				organization_id: orgId,
				user_id: ownerId,
				display_name: 'Jordan Ellis',
				bio: 'Founder. Ten years helping small businesses get paid on time.',
				business_hours: weekdays('09:00', '17:00', ['monday', 'tuesday', 'wednesday', 'thursday', 'friday']),
			},
			{
				organization_id: orgId,
				user_id: null,
				display_name: 'Renata Alves',
				bio: 'Senior consultant, speaks English, Spanish and Portuguese.',
				business_hours: weekdays('10:00', '18:00', ['tuesday', 'wednesday', 'thursday', 'friday', 'saturday']),
			},
		])
		.returning('id')
		.execute()

	// 20 appointments: past ones completed, no-show or cancelled; upcoming ones confirmed, pending
	// or cancelled. Two hours apart at least, so that no live pair overlaps even with the buffer.
	const hours = ['09:00', '11:00', '13:00', '15:00']
	const taken = new Set<string>()
	const appointments: {
		local_date: string
		local_time: string
		minutes: number
		service_id: string
		provider_id: string
		status: AppointmentStatus
		guest_name: string
		guest_email: string
		guest_phone: string | null
		notes: string | null
		total_price: string
	}[] = []
	const bookers = clientRows.filter((c) => c.email !== null)
	while (appointments.length < 20) {
		const i = appointments.length
		const offset = i < 10 ? -1 - Math.floor(random() * 30) : 1 + Math.floor(random() * 21)
		const day = addDays(today, offset)
		const weekday = day.getUTCDay()
		const providerIndex = i % 2
		// Jordan works Monday to Friday, Renata Tuesday to Saturday.
		if (providerIndex === 0 ? weekday === 0 || weekday === 6 : weekday === 0 || weekday === 1) continue
		const time = providerIndex === 0 ? pick(hours) : pick(hours.slice(1))
		const key = `${providerIndex}-${isoDate(day)}-${time}`
		if (taken.has(key)) continue
		taken.add(key)
		const service = pick(services)
		// The first of each half in every status, whatever day the draw falls on; then by weight.
		const status: AppointmentStatus =
			offset < 0
				? (PAST_FIRST[i] ??
					weighted([
						['completed', 70],
						['no_show', 15],
						['cancelled', 15],
					]))
				: (UPCOMING_FIRST[i - 10] ??
					weighted([
						['confirmed', 65],
						['pending', 25],
						['cancelled', 10],
					]))
		// Bookers are the demo's clients (a booking links to the client with its e-mail).
		const guest = pick(bookers)
		appointments.push({
			local_date: isoDate(day),
			local_time: time,
			minutes: service.duration_minutes,
			service_id: service.id,
			provider_id: providers[providerIndex]!.id,
			status,
			guest_name: guest.name,
			guest_email: guest.email!,
			guest_phone: guest.phone,
			notes: random() < 0.3 ? pick(['First visit', 'Prefers video call', 'Bring last invoices', 'Referred by a client']) : null,
			total_price: service.price,
		})
	}
	// Local wall-clock times become instants in the organization's timezone; the table's trigger
	// derives the local date and times and the buffer back from them.
	await sql`
		insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at,
			status, guest_name, guest_email, guest_phone, notes, total_price)
		select ${orgId}, a.service_id, a.provider_id,
			(a.local_date + a.local_time) at time zone ${TIMEZONE},
			(a.local_date + a.local_time + make_interval(mins => a.minutes)) at time zone ${TIMEZONE},
			a.status, a.guest_name, a.guest_email, a.guest_phone, a.notes, a.total_price
		from jsonb_to_recordset(${JSON.stringify(appointments)}::jsonb) as a(local_date date, local_time time,
			minutes integer, service_id uuid, provider_id uuid, status public.appointment_status, guest_name text,
			guest_email text, guest_phone text, notes text, total_price numeric)`.execute(trx)

	// The booking module, activated by the owner and paid from the organization's gears.
	const module = await trx.selectFrom('modules').select('base_gear_cost').where('id', '=', BOOKING_MODULE_ID).executeTakeFirstOrThrow()
	await trx
		.insertInto('organization_modules')
		.values({ organization_id: orgId, module_id: BOOKING_MODULE_ID, status: 'activated', activated_by: ownerId })
		.execute()
	if (module.base_gear_cost > 0) {
		await sql`select private.spend_gears(${orgId}, ${module.base_gear_cost}, 'module_activation', ${ownerId}, ${BOOKING_MODULE_ID}::uuid, null)`.execute(
			trx,
		)
	}
}
