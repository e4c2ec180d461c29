/**
 * Webhooks (docs/product.md, Webhooks; docs/webhooks.md): events are written once per change, in
 * the changing statement, for every path (a payment typed or imported, a booking made, confirmed
 * or cancelled, an invoice sent and paid), and not at all for an organization without endpoints;
 * each delivery is signed so a receiver verifies it and refuses an old timestamp; a failed
 * attempt is retried after 1 min, 5 min, 30 min, 2 h, 12 h, then fails; two instances post each
 * attempt once; the secret is never readable; only owners and administrators of the organization,
 * with the upgrade, see and change anything. On PGlite and on the PostgreSQL server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { OutboundError } from '#app/.server/outbound.ts'
import { runDueJobs } from '#app/.server/scheduler.ts'
import { attemptDelivery, pruneWebhookEvents, WEBHOOK_RETENTION_DAYS, webhookJob } from '#app/.server/webhooks/delivery.ts'
import { createEndpoint, deleteEndpoint, getWebhooks, resendDelivery, setEndpointEnabled } from '#app/.server/webhooks/endpoints.ts'
import { checkWebhookUrl } from '#app/.server/webhooks/post.ts'
import { signatureHeader, verifySignature } from '#app/.server/webhooks/signature.ts'
import { MODULES } from '#app/lib/modules.ts'
import { startReceiver } from '../support/webhook-receiver.ts'
import { createRule } from '#app/.server/rules/rules.ts'
import { BLANK_RULE } from '#app/lib/schemas/rules.ts'
import { addMember, createBookingSetup, createUser, refusal, type TestUser } from './fixtures.ts'
import { useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()
process.env.SECRETS_KEY ??= 'webhooks-test-secrets-key-of-32-characters'
// The receiver listens on 127.0.0.1, refused by default (app/.server/webhooks/post.ts).
process.env.WEBHOOKS_ALLOW_PRIVATE_HOSTS = 'true'

const AUTOMATION = MODULES.automation.id
const UNLIMITED = MODULES.automation.upgrades.unlimited.id
const INVOICING = MODULES.invoicing.id

let secret: string | undefined
const receiver = await startReceiver({ secret: () => secret })
afterAll(() => receiver.close())

/** An owner whose organization has Workflow Automation and Automation Unlimited, given as the system. */
async function owner({ upgrade = true } = {}) {
	const user = await createUser('Hook Owner')
	await asSystem(async (trx) => {
		await sql`insert into public.organization_modules (organization_id, module_id) values (${user.orgId}, ${AUTOMATION})`.execute(trx)
		if (upgrade)
			await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
				select organization_id, id, ${UNLIMITED} from public.organization_modules
				where organization_id = ${user.orgId} and module_id = ${AUTOMATION}`.execute(trx)
	})
	return user
}

async function endpoint(user: TestUser, events: string[] = ['payment.received'], url = receiver.url) {
	const created = await createEndpoint(user.userId, user.orgId, { url, description: 'Books', events: events as never })
	if (!created.ok) throw new Error(created.code)
	return created
}

async function pay(user: TestUser, amounts: number[], viaUser = user.userId) {
	return asUser(viaUser, (trx) =>
		trx
			.insertInto('transactions')
			.values(
				amounts.map((amount) => ({ organization_id: user.orgId, amount, payment_method: 'Venmo' as const, description: 'From Ana Ruiz' })),
			)
			.returning('id')
			.execute(),
	)
}

async function events(orgId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ type: string; subject_id: string; data: Record<string, unknown> }>`
			select type, subject_id, data from public.webhook_events where organization_id = ${orgId} order by created_at, type`.execute(trx),
	)
	return rows
}

async function deliveries(orgId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{
			id: string
			status: string
			attempts: number
			response_status: number | null
			next_attempt_at: Date | null
			last_attempt_at: Date | null
		}>`
			select id, status, attempts, response_status, next_attempt_at, last_attempt_at from public.webhook_deliveries
			where organization_id = ${orgId} order by created_at, id`.execute(trx),
	)
	return rows
}

const future = (minutes: number) => new Date(Date.now() + minutes * 60_000)

describe('events', () => {
	test("a payment's event carries what the organization's rules made of it in the same statement", async () => {
		const user = await owner()
		await endpoint(user)
		const made = await createRule(user.userId, user.orgId, {
			...BLANK_RULE,
			name: 'Ana to review',
			memoContains: 'Ana Ruiz',
			setCategory: 'review',
			addTag: 'vip',
		})
		expect(made.kind).toBe('saved')
		await pay(user, [55])
		const [event] = await events(user.orgId)
		expect(event!.data).toMatchObject({ amount: '55.00', category: 'review', tags: ['vip'], held_for_review: false })
	})

	test('a payment statement writes one event per payment and one delivery per endpoint that wants it', async () => {
		const user = await owner()
		await endpoint(user)
		await endpoint(user, ['booking.created'])
		const paid = await pay(user, [12.5, 30])
		const written = await events(user.orgId)
		expect(written.map((e) => e.type)).toEqual(['payment.received', 'payment.received'])
		expect(written.map((e) => e.subject_id).sort()).toEqual(paid.map((p) => p.id).sort())
		expect(written.map((e) => e.data.amount).sort()).toEqual(['12.50', '30.00'])
		expect(written[0]!.data.description).toBe('From Ana Ruiz')
		// Only the endpoint that wants payments gets them.
		expect(await deliveries(user.orgId)).toHaveLength(2)
		// An update of a payment is no new payment.
		await asUser(user.userId, (trx) =>
			trx.updateTable('transactions').set({ description: 'later' }).where('id', '=', paid[0]!.id).execute(),
		)
		expect(await events(user.orgId)).toHaveLength(2)
	})

	test('an organization without endpoints, or without the upgrade, gets no event', async () => {
		const bare = await owner()
		await pay(bare, [5])
		expect(await events(bare.orgId)).toEqual([])
		// An endpoint kept after the upgrade was removed sends nothing more.
		const lapsed = await owner()
		await endpoint(lapsed)
		await asSystem((trx) => sql`delete from public.organization_module_upgrades where organization_id = ${lapsed.orgId}`.execute(trx))
		await pay(lapsed, [5])
		expect(await events(lapsed.orgId)).toEqual([])
	})

	test('bookings: created, confirmed and cancelled, once each', async () => {
		const user = await owner()
		await endpoint(user, ['booking.created', 'booking.confirmed', 'booking.cancelled'])
		const { serviceId, providerId } = await createBookingSetup(user.orgId)
		const booking = await asUser(user.userId, (trx) =>
			trx
				.insertInto('booking_appointments')
				.values({
					organization_id: user.orgId,
					service_id: serviceId,
					provider_id: providerId,
					guest_name: 'Lía Gómez',
					guest_email: 'lia@example.com',
					starts_at: future(60 * 24 * 3),
					ends_at: future(60 * 24 * 3 + 30),
					status: 'pending',
				})
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		const setStatus = (status: 'confirmed' | 'cancelled') =>
			asUser(user.userId, (trx) => trx.updateTable('booking_appointments').set({ status }).where('id', '=', booking.id).execute())
		await setStatus('confirmed')
		// Saving a confirmed booking again is no new confirmation.
		await setStatus('confirmed')
		await setStatus('cancelled')
		const written = await events(user.orgId)
		expect(written.map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed', 'booking.cancelled'])
		expect(written.every((e) => e.subject_id === booking.id)).toBe(true)
		expect(written[2]!.data).toMatchObject({ id: booking.id, status: 'cancelled', guest_name: 'Lía Gómez' })
	})

	test('invoices: sent, then paid when the payments reach the total', async () => {
		const user = await owner()
		await asSystem((trx) =>
			sql`insert into public.organization_modules (organization_id, module_id) values (${user.orgId}, ${INVOICING})`.execute(trx),
		)
		await endpoint(user, ['invoice.sent', 'invoice.paid'])
		const client = await asSystem((trx) =>
			trx
				.insertInto('clients')
				.values({ organization_id: user.orgId, name: 'Marta Díaz', status: 'active' })
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		const id = await asUser(user.userId, async (trx) => {
			const { rows } = await sql<{ id: string }>`
				insert into public.invoices (organization_id, client_id) values (${user.orgId}, ${client.id}) returning id`.execute(trx)
			await sql`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
				values (${user.orgId}, ${rows[0]!.id}, 0, 'Design', 1, 100)`.execute(trx)
			await sql`select public.send_invoice(${rows[0]!.id}, ${'a'.repeat(64)}, 'sealed')`.execute(trx)
			return rows[0]!.id
		})
		expect((await events(user.orgId)).map((e) => e.type)).toEqual(['invoice.sent'])
		await asUser(user.userId, (trx) => sql`select public.mark_invoice_paid(${id})`.execute(trx))
		const written = await events(user.orgId)
		expect(written.map((e) => e.type)).toEqual(['invoice.sent', 'invoice.paid'])
		expect(written[1]!.data).toMatchObject({ id, total: '100.00', amount_paid: '100.00', number: 1 })
	})
})

describe('deliveries', () => {
	test('a delivery is signed: the receiver verifies it, an altered body or an old timestamp is refused', async () => {
		const user = await owner()
		const created = await endpoint(user)
		secret = created.secret
		expect(created.secret).toMatch(/^whsec_[\w-]{43}$/)
		await pay(user, [42])
		const [delivery] = await deliveries(user.orgId)
		const before = receiver.received.length
		expect(await attemptDelivery(`${delivery!.id}:1`)).toBe('delivered')
		const got = receiver.received.slice(before)
		expect(got).toHaveLength(1)
		expect(got[0]!.verified).toBe(true)
		expect(got[0]!.headers['p2p-delivery']).toBe(delivery!.id)
		expect(got[0]!.headers['p2p-event']).toBe('payment.received')
		const body = JSON.parse(got[0]!.body) as { id: string; type: string; data: { amount: string } }
		expect(body).toMatchObject({ type: 'payment.received', data: { amount: '42.00' } })
		// The app's own check agrees, and refuses what a replay or a forgery would bring.
		const header = got[0]!.headers['p2p-signature'] as string
		expect(verifySignature(header, got[0]!.body, created.secret)).toBe(true)
		expect(verifySignature(header, got[0]!.body.replace('42.00', '4200.00'), created.secret)).toBe(false)
		expect(verifySignature(header, got[0]!.body, 'whsec_other')).toBe(false)
		const old = Math.floor(Date.now() / 1000) - 301
		expect(verifySignature(signatureHeader(created.secret, old, got[0]!.body), got[0]!.body, created.secret)).toBe(false)
		expect((await deliveries(user.orgId))[0]).toMatchObject({ status: 'delivered', attempts: 1, response_status: 200 })
		// The same attempt again is not made.
		expect(await attemptDelivery(`${delivery!.id}:1`)).toBeNull()
		expect(receiver.received.length).toBe(before + 1)
	})

	test('failed attempts are retried after 1 min, 5 min, 30 min, 2 h and 12 h, then the delivery fails', async () => {
		const user = await owner()
		// A receiver of its own, answering 500 six times: the other tests' deliveries fall due at these instants too.
		const failing = await startReceiver({ statuses: [500, 500, 500, 500, 500, 500] })
		await endpoint(user, ['payment.received'], failing.url)
		await pay(user, [7])
		const waits: number[] = []
		let now = new Date()
		for (let attempt = 1; attempt <= 6; attempt++) {
			const ran = await runDueJobs(now, [webhookJob])
			const mine = ran.filter((key) => key.startsWith('webhook-delivery:'))
			expect(mine.length).toBeGreaterThanOrEqual(1)
			const [d] = await deliveries(user.orgId)
			expect(d!.attempts).toBe(attempt)
			expect(d!.response_status).toBe(500)
			if (attempt < 6) {
				waits.push((d!.next_attempt_at!.getTime() - d!.last_attempt_at!.getTime()) / 60_000)
				// Not due a moment before its time.
				expect(await runDueJobs(new Date(d!.next_attempt_at!.getTime() - 1000), [webhookJob])).not.toContainEqual(
					expect.stringContaining(d!.id),
				)
				now = new Date(d!.next_attempt_at!.getTime() + 1000)
			} else expect(d).toMatchObject({ status: 'failed', next_attempt_at: null })
		}
		expect(waits).toEqual([1, 5, 30, 120, 720])
		// A resend makes one more attempt at once; this one is answered.
		const [failed] = await deliveries(user.orgId)
		expect(await resendDelivery(user.userId, user.orgId, failed!.id)).toEqual({ ok: true })
		expect((await deliveries(user.orgId))[0]).toMatchObject({ status: 'delivered', attempts: 7, response_status: 200 })
		expect(failing.received.map((r) => [r.answered, r.headers['p2p-attempt']])).toEqual(
			[1, 2, 3, 4, 5, 6, 7].map((n) => [n < 7 ? 500 : 200, String(n)]),
		)
		await failing.close()
	})

	test('two instances make each attempt once', async () => {
		const user = await owner()
		secret = (await endpoint(user)).secret
		await pay(user, [1, 2, 3])
		const before = receiver.received.length
		const now = new Date()
		await Promise.all([runDueJobs(now, [webhookJob]), runDueJobs(now, [webhookJob])])
		const mine = (await deliveries(user.orgId)).map((d) => d.id)
		const posted = receiver.received.slice(before).filter((r) => mine.includes(r.headers['p2p-delivery'] as string))
		expect(posted).toHaveLength(3)
		expect(new Set(posted.map((r) => r.headers['p2p-delivery'])).size).toBe(3)
		expect((await deliveries(user.orgId)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true)
	})

	test('private, loopback and link-local addresses are refused by the policy before any packet', async () => {
		for (const url of [
			'http://127.0.0.1:9/x',
			'http://10.1.2.3/x',
			'http://169.254.169.254/latest',
			'http://[::1]/x',
			'http://localhost/x',
		]) {
			const refused = await checkWebhookUrl(url, undefined, { allowPrivate: false }).then(
				() => null,
				(error: unknown) => (error instanceof OutboundError ? error.reason : String(error)),
			)
			expect(refused, url).toBe('refused')
		}
		const user = await owner()
		expect(
			await createEndpoint(user.userId, user.orgId, { url: 'ftp://example.com/x', description: null, events: ['invoice.paid'] }),
		).toEqual({
			ok: false,
			code: 'address_unresolved',
		})
	})
})

describe('who sees and changes what', () => {
	let a: TestUser
	let member: TestUser
	let stranger: TestUser
	let deliveryId: string
	beforeAll(async () => {
		a = await owner()
		await endpoint(a)
		await pay(a, [9])
		deliveryId = (await deliveries(a.orgId))[0]!.id
		member = await createUser('Plain Member')
		await addMember(a.orgId, member.userId, 'member')
		stranger = await owner()
	})

	test('members below administrator and other organizations see nothing and change nothing', async () => {
		for (const user of [member, stranger]) {
			const seen = await getWebhooks(user.userId, a.orgId)
			expect(seen.endpoints).toEqual([])
			expect(seen.deliveries).toEqual([])
			expect(await resendDelivery(user.userId, a.orgId, deliveryId)).toEqual({ ok: false, code: 'not_found' })
		}
		expect(await createEndpoint(member.userId, a.orgId, { url: receiver.url, description: null, events: ['invoice.paid'] })).toEqual({
			ok: false,
			code: 'forbidden',
		})
		const { id } = (await getWebhooks(a.userId, a.orgId)).endpoints[0]!
		expect(await setEndpointEnabled(stranger.userId, a.orgId, id, false)).toBe(false)
		expect(await setEndpointEnabled(member.userId, a.orgId, id, false)).toBe(false)
		expect((await getWebhooks(a.userId, a.orgId)).endpoints[0]!.enabled).toBe(true)
		expect(await deleteEndpoint(stranger.userId, a.orgId, id)).toBe(false)
		expect(await deleteEndpoint(member.userId, a.orgId, id)).toBe(false)
		expect((await getWebhooks(a.userId, a.orgId)).endpoints).toHaveLength(1)
	})

	test('the sealed secret is readable by no member, the owner included; events and deliveries are written by no member', async () => {
		expect(await refusal(asUser(a.userId, (trx) => sql`select secret_sealed from private.webhook_secrets`.execute(trx)))).toBe('42501')
		// Nor is an endpoint added past the function that seals its secret.
		expect(
			await refusal(
				asUser(a.userId, (trx) =>
					sql`insert into public.webhook_endpoints (organization_id, url, events) values (${a.orgId}, 'https://example.com/x', '{invoice.paid}')`.execute(
						trx,
					),
				),
			),
		).toBe('42501')
		expect(
			await refusal(
				asUser(a.userId, (trx) =>
					sql`insert into public.webhook_events (organization_id, type, subject_id, data)
						values (${a.orgId}, 'invoice.paid', gen_random_uuid(), '{}')`.execute(trx),
				),
			),
		).toBe('42501')
		expect(await refusal(asUser(a.userId, (trx) => sql`update public.webhook_deliveries set status = 'delivered'`.execute(trx)))).toBe(
			'42501',
		)
		expect(
			await refusal(asUser(a.userId, (trx) => sql`select private.record_webhook_attempt(${deliveryId}, 1, 200, null, now())`.execute(trx))),
		).toBe('42501')
	})

	test('without the upgrade no endpoint is added; at most ten per organization', async () => {
		const bare = await owner({ upgrade: false })
		expect(await createEndpoint(bare.userId, bare.orgId, { url: receiver.url, description: null, events: ['invoice.paid'] })).toEqual({
			ok: false,
			code: 'upgrade_inactive',
		})
		const full = await owner()
		for (let i = 0; i < 10; i++) await endpoint(full)
		expect(await createEndpoint(full.userId, full.orgId, { url: receiver.url, description: null, events: ['invoice.paid'] })).toEqual({
			ok: false,
			code: 'endpoint_limit',
		})
	})
})

describe('pausing and keeping', () => {
	test('a paused endpoint gets no new delivery and its pending one is not resent; resumed, it gets the next payment', async () => {
		const user = await owner()
		const { id } = await endpoint(user)
		await pay(user, [10])
		const [pending] = await deliveries(user.orgId)
		expect(await setEndpointEnabled(user.userId, user.orgId, id, false)).toBe(true)
		expect((await getWebhooks(user.userId, user.orgId)).endpoints[0]!.enabled).toBe(false)
		await pay(user, [20])
		expect(await events(user.orgId)).toHaveLength(1)
		expect(await resendDelivery(user.userId, user.orgId, pending!.id)).toEqual({ ok: false, code: 'endpoint_disabled' })
		expect(await setEndpointEnabled(user.userId, user.orgId, id, true)).toBe(true)
		await pay(user, [30])
		expect((await events(user.orgId)).map((e) => e.data.amount)).toEqual(['10.00', '30.00'])
		expect(await deliveries(user.orgId)).toHaveLength(2)
	})

	test(`events and their deliveries older than ${WEBHOOK_RETENTION_DAYS} days are pruned, newer ones kept`, async () => {
		const user = await owner()
		await endpoint(user)
		await pay(user, [1, 2])
		const [old] = await events(user.orgId)
		await asSystem((trx) =>
			sql`update public.webhook_events set created_at = now() - make_interval(days => ${WEBHOOK_RETENTION_DAYS + 1})
				where organization_id = ${user.orgId} and subject_id = ${old!.subject_id}`.execute(trx),
		)
		expect(await pruneWebhookEvents()).toBeGreaterThanOrEqual(1)
		const kept = await events(user.orgId)
		expect(kept).toHaveLength(1)
		expect(kept[0]!.subject_id).not.toBe(old!.subject_id)
		expect(await deliveries(user.orgId)).toHaveLength(1)
	})
})
