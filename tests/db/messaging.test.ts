/**
 * Reminders & Messaging (docs/product.md, Reminders & Messaging): templates the owner edits in
 * three languages, refused with a placeholder the kind does not know, rendered with every
 * character escaped in HTML; invoice reminders before and after the due date at 9:00 in the
 * organization's zone, once each (also from two runners at once), stopped by payment, never to
 * an address that unsubscribed; appointment reminders from the same templates and sender. Each
 * test bills on days of its own, so one test's ticks never find another's reminders. On PGlite
 * and on the PostgreSQL server.
 */
import { TZDate } from '@date-fns/tz'
import { describe, expect, test } from 'vitest'
import { createPublicBooking } from '#app/.server/booking/public/bookings.ts'
import { getPublicOrganization } from '#app/.server/booking/public/organization.ts'
import { sendDueReminders } from '#app/.server/booking/reminders.ts'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { getPublicInvoice } from '#app/.server/invoices/public-page.ts'
import { sendInvoice } from '#app/.server/invoices/sending.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { dueInvoiceReminders, invoiceRemindersJob, sendDueInvoiceReminders } from '#app/.server/messaging/invoice-reminders.ts'
import { renderMessage } from '#app/.server/messaging/render.ts'
import { listTemplates, resetTemplate, saveTemplate } from '#app/.server/messaging/templates.ts'
import { unsubscribeClient, verifyClientUnsubscribe } from '#app/.server/messaging/unsubscribe.ts'
import { runDueJobs } from '#app/.server/scheduler.ts'
import { templateSchema } from '#app/lib/schemas/messaging.ts'
import { addMember, at, CATALOGUE, createBookingSetup, createUser, refusal, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

const INVOICING = 'b0000000-0000-4000-8000-000000000005'
const MESSAGING = 'b0000000-0000-4000-8000-000000000006'
const REMINDERS_UPGRADE = 'c0000000-0000-4000-8000-000000000007'
const ZONE = 'America/New_York'

type World = { owner: TestUser; slug: string }

async function world(
	options: { messaging?: boolean; before?: number[]; after?: number[]; on?: boolean; zone?: string } = {},
): Promise<World> {
	const owner = await createUser('Estudio Nueve')
	await asSystem(async (trx) => {
		await sql`update public.booking_settings set timezone = ${options.zone ?? ZONE} where organization_id = ${owner.orgId}`.execute(trx)
		await sql`insert into public.organization_modules (organization_id, module_id) values (${owner.orgId}, ${INVOICING})`.execute(trx)
		if (options.messaging ?? true) {
			await sql`insert into public.organization_modules (organization_id, module_id) values (${owner.orgId}, ${MESSAGING})`.execute(trx)
			await sql`update public.messaging_settings set days_before = ${options.before ?? [3]}::integer[], days_after = ${options.after ?? [1, 7]}::integer[],
				invoice_reminders = ${options.on ?? true} where organization_id = ${owner.orgId}`.execute(trx)
		}
	})
	const { slug } = await asSystem((trx) =>
		trx.selectFrom('organizations').select('slug').where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
	)
	return { owner, slug }
}

/** A date (UTC) `n` days from today: each test takes days of its own (see the top). */
function day(n: number) {
	const d = new Date()
	d.setUTCHours(0, 0, 0, 0)
	d.setUTCDate(d.getUTCDate() + n)
	return d.toISOString().slice(0, 10)
}

const shift = (date: string, n: number) => {
	const d = new Date(`${date}T00:00:00Z`)
	d.setUTCDate(d.getUTCDate() + n)
	return d.toISOString().slice(0, 10)
}

/** The instant of a wall-clock time on a date in a zone. */
function local(date: string, hour: number, minute = 0, zone = ZONE) {
	const [y, m, d] = date.split('-').map(Number) as [number, number, number]
	return new Date(new TZDate(y, m - 1, d, hour, minute, 0, zone).getTime())
}

const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}@client.example`

/** A sent invoice of 2 × $125.00 to a client of `email`, due on `due`, in `language`. */
async function sentInvoice(w: World, due: string, { email = uniqueEmail('cliente'), language = 'es', name = 'Lucía Pérez' } = {}) {
	const id = await asUser(w.owner.userId, async (trx) => {
		const client = await trx
			.insertInto('clients')
			.values({ organization_id: w.owner.orgId, name, email, user_id: w.owner.userId })
			.returning('id')
			.executeTakeFirstOrThrow()
		const { rows } = await sql<{ id: string }>`
			insert into public.invoices (organization_id, client_id, created_by, language, issue_date, due_date)
			values (${w.owner.orgId}, ${client.id}, ${w.owner.userId}, ${language}, current_date, ${due}::date) returning id`.execute(trx)
		await sql`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
			values (${w.owner.orgId}, ${rows[0]!.id}, 0, 'Diseño', 2, 125)`.execute(trx)
		return rows[0]!.id
	})
	const sent = await sendInvoice(w.owner.userId, w.owner.orgId, id)
	if (!sent.ok) throw new Error(sent.code)
	const { memo_code } = await asSystem((trx) =>
		trx.selectFrom('invoice_overview').select('memo_code').where('id', '=', id).executeTakeFirstOrThrow(),
	)
	return { id, email, number: sent.number, token: sent.token, code: memo_code! }
}

/** A payment typed by the owner, with `memo` as its description (the engine matches on insert). */
async function pay(w: World, amount: number, memo: string) {
	await asUser(w.owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values({ organization_id: w.owner.orgId, amount, description: memo, payment_method: 'Venmo', date_received: day(0) })
			.execute(),
	)
}

async function tick(now: Date) {
	const { sent } = await sendDueInvoiceReminders(now)
	await drainMail()
	return sent
}

describe('the module', () => {
	test('is sold: the owner activates it for its gears, and its reminder settings start at 3 days before and 1, 7 and 14 after', async () => {
		const owner = await createUser('Buyer')
		await asUser(owner.userId, (trx) => sql`select public.activate_module(${owner.orgId}, ${MESSAGING})`.execute(trx))
		const after = await asSystem(async (trx) => ({
			remaining: (await trx.selectFrom('organizations').select('gears_remaining').where('id', '=', owner.orgId).executeTakeFirstOrThrow())
				.gears_remaining,
			settings: await trx
				.selectFrom('messaging_settings')
				.select(['invoice_reminders', 'days_before', 'days_after'])
				.where('organization_id', '=', owner.orgId)
				.executeTakeFirst(),
		}))
		expect(after).toEqual({ remaining: 15000 - 800, settings: { invoice_reminders: true, days_before: [3], days_after: [1, 7, 14] } })
		// Deactivated and activated again, the settings the owner chose stay.
		await asSystem((trx) =>
			sql`update public.messaging_settings set days_after = '{2}' where organization_id = ${owner.orgId}`.execute(trx),
		)
		await asUser(owner.userId, (trx) => sql`select public.deactivate_module(${owner.orgId}, ${MESSAGING})`.execute(trx))
		await asUser(owner.userId, (trx) => sql`select public.activate_module(${owner.orgId}, ${MESSAGING})`.execute(trx))
		const kept = await asSystem((trx) =>
			trx.selectFrom('messaging_settings').select('days_after').where('organization_id', '=', owner.orgId).executeTakeFirstOrThrow(),
		)
		expect(kept.days_after).toEqual([2])
	})
})

describe('templates', () => {
	test('a placeholder the kind does not know is refused on save, naming it, and the database refuses it too', async () => {
		const form = { intent: 'save-template', kind: 'invoice_after', language: 'es', subject: 'Hola', body: 'Total: {{total}}' }
		const issues = (value: Record<string, string>) => {
			const parsed = templateSchema.safeParse(value)
			return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
		}
		expect(issues(form)).toEqual(['body: unknownPlaceholder|{{total}}'])
		// A kind's placeholders are its own: the pay link is not an appointment's.
		expect(issues({ ...form, kind: 'appointment_reminder', body: 'Pay: {{pay_link}}' })).toEqual(['body: unknownPlaceholder|{{pay_link}}'])
		expect(issues({ ...form, subject: 'Factura {{ invoice number }}', body: 'Hola' })).toEqual([
			'subject: malformedPlaceholder|{{ invoice number }}',
		])
		expect(issues({ ...form, subject: 'x'.repeat(201), body: 'Hola {{ client_name }}' })).toEqual(['subject: subjectTooLong'])
		expect(issues({ ...form, body: 'Hola {{ client_name }}, {{balance}}' })).toEqual([])

		const w = await world()
		for (const body of ['Total: {{total}}', 'Hola {{client_name', '{{Client_Name}}']) {
			expect(
				await refusal(saveTemplate(w.owner.userId, w.owner.orgId, { kind: 'invoice_after', language: 'es', subject: 'Hola', body })),
				body,
			).toBe('23514')
		}
		expect(
			await refusal(
				saveTemplate(w.owner.userId, w.owner.orgId, {
					kind: 'appointment_reminder',
					language: 'es',
					subject: 'Hola',
					body: '{{memo_code}}',
				}),
			),
		).toBe('23514')
		expect((await listTemplates(w.owner.userId, w.owner.orgId)).filter((t) => t.edited)).toEqual([])
	})

	test('rendered, every character of the template and of the values is escaped in the HTML; only a web address becomes a link', () => {
		const template = {
			subject: 'Factura {{invoice_number}}\n<b>',
			body: '<b>Hola</b> {{client_name}} & co.\n\nPaga aquí: {{pay_link}}\n{{memo_code}}',
		}
		const hostile = renderMessage('invoice_after', template, {
			client_name: '<script>alert(1)</script>',
			invoice_number: '7',
			pay_link: 'javascript:alert(1)',
			memo_code: '"><img src=x onerror=alert(1)>',
		})
		expect(hostile.subject).toBe('Factura 7 <b>')
		expect(hostile.html).toContain('&lt;b&gt;Hola&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt; &amp; co.')
		expect(hostile.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;')
		expect(hostile.html).not.toMatch(/<script|<img|<b>|href="javascript/)
		expect(hostile.html).toContain('Paga aquí: javascript:alert(1)')
		expect(hostile.text).toContain('<b>Hola</b> <script>alert(1)</script> & co.')

		const fine = renderMessage('invoice_after', template, { client_name: 'Ana', pay_link: 'https://pay.example/i/abc?x=1&y=2' })
		expect(fine.html).toContain('<a href="https://pay.example/i/abc?x=1&amp;y=2">https://pay.example/i/abc?x=1&amp;y=2</a>')
		expect(fine.html.match(/<p /g)).toHaveLength(2)
	})

	test('members read the templates, the built-in text where none was written; owners and administrators write them, a member cannot', async () => {
		const w = await world()
		const [member, admin] = await Promise.all([createUser('Plain Member'), createUser('Admin Member')])
		await addMember(w.owner.orgId, member.userId, 'member')
		await addMember(w.owner.orgId, admin.userId, 'administrator')
		const all = await listTemplates(member.userId, w.owner.orgId)
		expect(all).toHaveLength(9)
		const es = all.find((t) => t.kind === 'invoice_after' && t.language === 'es')!
		expect(es).toMatchObject({ edited: false, subject: 'Vencida: factura n.º {{invoice_number}} de {{organization_name}}' })

		const value = {
			kind: 'invoice_after' as const,
			language: 'es' as const,
			subject: 'Aviso {{invoice_number}}',
			body: 'Hola {{client_name}}',
		}
		expect(await refusal(saveTemplate(member.userId, w.owner.orgId, value))).toBe('42501')
		expect(await refusal(saveTemplate(admin.userId, w.owner.orgId, value))).toBeNull()
		expect(
			(await listTemplates(member.userId, w.owner.orgId)).find((t) => t.kind === 'invoice_after' && t.language === 'es'),
		).toMatchObject({
			edited: true,
			subject: 'Aviso {{invoice_number}}',
		})
		// Another organization's member sees its own built-in texts, not these.
		const other = await createUser('Other Owner')
		expect((await listTemplates(other.userId, w.owner.orgId)).filter((t) => t.edited)).toEqual([])
		await resetTemplate(member.userId, w.owner.orgId, 'invoice_after', 'es')
		expect((await listTemplates(member.userId, w.owner.orgId)).filter((t) => t.edited)).toHaveLength(1)
		await resetTemplate(w.owner.userId, w.owner.orgId, 'invoice_after', 'es')
		expect((await listTemplates(member.userId, w.owner.orgId)).filter((t) => t.edited)).toEqual([])
	})
})

describe('invoice reminders', () => {
	test('before and after the due date at 9:00 in the organization’s zone, once each, in the invoice’s language, with the pay link and the code', async () => {
		const w = await world()
		const due = day(40)
		const invoice = await sentInvoice(w, due)
		const before = shift(due, -3)
		// 8:55 in New York is 13:55 (or 12:55) UTC: not yet; 9:05 it is, whatever UTC says.
		expect(await tick(local(before, 8, 55))).toBe(0)
		expect(await tick(local(before, 9, 5))).toBe(1)
		expect(await tick(local(before, 9, 6))).toBe(0)
		const [first, ...rest] = await mailsTo(invoice.email)
		expect(rest).toEqual([])
		expect(first!.subject).toBe(
			`Recordatorio: la factura n.º ${invoice.number} de Estudio Nueve vence el ${due.split('-').reverse().join('/')}`,
		)
		expect(first!.text).toContain('Hola, Lucía Pérez:')
		expect(first!.text).toMatch(/por 250,00\sUS\$ vence el /)
		expect(first!.text).toContain(`escribe el código ${invoice.code}`)
		const link = /https?:\/\/\S+\/i\/([0-9a-f]{64})/.exec(first!.text)
		expect(link?.[1]).toBe(invoice.token)
		expect((await getPublicInvoice(link![1]!))?.number).toBe(invoice.number)
		expect(first!.headers['list-unsubscribe']).toMatch(/^<https?:\/\/\S+\/unsubscribe\/client\?o=/)
		expect(first!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
		expect(first!.text).toContain('Recibes este correo porque Estudio Nueve te envió una factura')

		// No reminder on the days between; after the due date, the owner's own Spanish text.
		await saveTemplate(w.owner.userId, w.owner.orgId, {
			kind: 'invoice_after',
			language: 'es',
			subject: 'Factura {{invoice_number}} vencida',
			body: 'Hola {{client_name}}, quedan {{balance}}. <Gracias>',
		})
		expect(await tick(local(shift(due, -2), 9, 5))).toBe(0)
		expect(await tick(local(due, 9, 5))).toBe(0)
		expect(await tick(local(shift(due, 1), 9, 5))).toBe(1)
		const second = (await mailsTo(invoice.email))[1]!
		expect(second.subject).toBe(`Factura ${invoice.number} vencida`)
		expect(second.text).toMatch(/Hola Lucía Pérez, quedan 250,00\sUS\$\. <Gracias>/)
	})

	test('a missed tick does not skip a reminder; one whose time passed more than a day ago is not sent late', async () => {
		const w = await world({ before: [], after: [1] })
		const due = day(44)
		const late = await sentInvoice(w, due)
		expect(await tick(new Date(local(shift(due, 1), 9).getTime() + 20 * 3_600_000))).toBe(1)
		expect(await mailsTo(late.email)).toHaveLength(1)
		const due2 = day(46)
		const tooLate = await sentInvoice(w, due2)
		expect(await tick(new Date(local(shift(due2, 1), 9).getTime() + 25 * 3_600_000))).toBe(0)
		expect(await mailsTo(tooLate.email)).toEqual([])
	})

	test('a payment with the memo code stops them: a part payment leaves the balance in the next one, the rest ends them', async () => {
		const w = await world({ before: [], after: [1, 7, 14] })
		const due = day(50)
		const invoice = await sentInvoice(w, due, { language: 'en', name: 'Jordan Lee' })
		await pay(w, 100, `invoice ${invoice.code.toLowerCase()}`)
		expect(await tick(local(shift(due, 1), 9, 5))).toBe(1)
		const [first] = await mailsTo(invoice.email)
		expect(first!.subject).toBe(`Overdue: invoice #${invoice.number} from Estudio Nueve`)
		expect(first!.text).toContain('$150.00 is still open')
		await pay(w, 150, `#${invoice.code}`)
		const state = await asSystem((trx) =>
			trx.selectFrom('invoice_overview').select('state').where('id', '=', invoice.id).executeTakeFirstOrThrow(),
		)
		expect(state.state).toBe('paid')
		expect((await dueInvoiceReminders(local(shift(due, 7), 9, 5))).filter((r) => r.invoiceId === invoice.id)).toEqual([])
		expect(await tick(local(shift(due, 7), 9, 5))).toBe(0)
		expect(await tick(local(shift(due, 14), 9, 5))).toBe(0)
		expect(await mailsTo(invoice.email)).toHaveLength(1)
	})

	test('two runners ticking at once, and a runner a minute apart, send each reminder once', async () => {
		const w = await world({ before: [2], after: [] })
		const due = day(54)
		const invoice = await sentInvoice(w, due)
		const now = local(shift(due, -2), 9, 1)
		await Promise.all([runDueJobs(now, [invoiceRemindersJob]), runDueJobs(now, [invoiceRemindersJob])])
		await runDueJobs(new Date(now.getTime() + 60_000), [invoiceRemindersJob])
		await drainMail()
		expect(await mailsTo(invoice.email)).toHaveLength(1)
		// Two runs at once (clocks a minute apart: two keys of the job), racing for the same reminder.
		const second = await sentInvoice(w, shift(due, 1))
		const later = local(shift(due, -1), 9, 1)
		const runs = await Promise.all([sendDueInvoiceReminders(later), sendDueInvoiceReminders(new Date(later.getTime() + 60_000))])
		await drainMail()
		expect(runs.map((r) => r.sent).sort()).toEqual([0, 1])
		expect(await mailsTo(second.email)).toHaveLength(1)
	})

	test('an address that followed the unsubscribe link gets no more reminders of that organization; the link cannot be bent to another', async () => {
		const w = await world({ before: [3], after: [1] })
		const due = day(58)
		const email = uniqueEmail('baja')
		const invoice = await sentInvoice(w, due, { email })
		expect(await tick(local(shift(due, -3), 9, 5))).toBe(1)
		const href = /https?:\/\/\S+\/unsubscribe\/client\?\S+/.exec((await mailsTo(email))[0]!.text)![0]
		const params = new URL(href).searchParams
		expect(verifyClientUnsubscribe(params)).toEqual({ organizationId: w.owner.orgId, email })
		for (const [name, value] of [
			['e', `other-${email}`],
			['o', (await createUser('Another Org')).orgId],
			['s', `${params.get('s')!.slice(0, -2)}AA`],
		] as const) {
			const bent = new URLSearchParams(params)
			bent.set(name, value)
			expect(verifyClientUnsubscribe(bent), name).toBeNull()
		}
		expect(await unsubscribeClient(verifyClientUnsubscribe(params)!)).toBe(true)
		expect(await tick(local(shift(due, 1), 9, 5))).toBe(0)
		expect(await mailsTo(email)).toHaveLength(1)
		// Another organization's reminders to the same address still go.
		const other = await world({ before: [], after: [1] })
		const theirs = await sentInvoice(other, due, { email: email.toUpperCase() })
		expect((await dueInvoiceReminders(local(shift(due, 1), 9, 5))).map((r) => r.invoiceId)).toEqual([theirs.id])
		expect(invoice.id).not.toBe(theirs.id)
	})

	test('none for an invoice sent after the reminder’s time, a void one, without the module, or with reminders off', async () => {
		const due = day(62)
		const at9 = local(shift(due, -3), 9, 5)
		const w = await world()
		const late = await sentInvoice(w, due)
		await asSystem((trx) =>
			sql`update public.invoices set sent_at = ${new Date(at9.getTime() - 60_000)} where id = ${late.id}`.execute(trx),
		)
		const voided = await sentInvoice(w, due)
		await asUser(w.owner.userId, (trx) => sql`select public.void_invoice(${voided.id})`.execute(trx))
		const without = await world({ messaging: false })
		const noModule = await sentInvoice(without, due)
		const off = await world({ on: false })
		const switchedOff = await sentInvoice(off, due)
		const mine = new Set([late.id, voided.id, noModule.id, switchedOff.id])
		expect((await dueInvoiceReminders(at9)).filter((r) => mine.has(r.invoiceId))).toEqual([])
		// The late one's time had not come when it was sent: its next reminder goes.
		expect((await dueInvoiceReminders(local(shift(due, 1), 9, 5))).filter((r) => mine.has(r.invoiceId)).map((r) => r.invoiceId)).toEqual([
			late.id,
		])
	})
})

describe('appointment reminders', () => {
	test('with the module, the booker’s reminder is the organization’s template in the booker’s language, with the unsubscribe, which stops the next', async () => {
		const w = await world()
		const { serviceId, providerId } = await createBookingSetup(w.owner.orgId, { price: 80 })
		await asSystem(async (trx) => {
			await sql`update public.booking_settings set min_advance_hours = 0, max_advance_days = 120, reminder_offsets_minutes = '{1440}',
				business_hours = (select jsonb_object_agg(d, '{"start": "00:00", "end": "24:00", "enabled": true}'::jsonb)
					from unnest(array['monday','tuesday','wednesday','thursday','friday','saturday','sunday']) d)
				where organization_id = ${w.owner.orgId}`.execute(trx)
			const module = await trx
				.insertInto('organization_modules')
				.values({ organization_id: w.owner.orgId, module_id: CATALOGUE.modules.booking })
				.returning('id')
				.executeTakeFirstOrThrow()
			await trx
				.insertInto('organization_module_upgrades')
				.values({ organization_id: w.owner.orgId, organization_module_id: module.id, upgrade_id: REMINDERS_UPGRADE })
				.execute()
		})
		await saveTemplate(w.owner.userId, w.owner.orgId, {
			kind: 'appointment_reminder',
			language: 'pt-BR',
			subject: 'Até amanhã, {{client_name}}!',
			body: '{{service}} em {{organization_name}}: {{start_time}}.\nGerencie: {{manage_link}}',
		})
		const email = uniqueEmail('lembrete')
		const book = async (start: string) => {
			const org = (await getPublicOrganization(w.slug))!
			const booked = await createPublicBooking(
				org,
				{ serviceId, providerId, start, contact: { name: 'Lucía Pérez', email }, timezone: 'America/Sao_Paulo' },
				'pt-BR',
			)
			if (!booked.ok) throw new Error(booked.code)
			await drainMail()
			return booked
		}
		const start = at(day(70), '15:00')
		const booked = await book(start)
		expect((await sendDueReminders(new Date(Date.parse(start) - 1440 * 60_000 + 30_000))).sent).toBe(1)
		await drainMail()
		const reminder = (await mailsTo(email)).find((m) => m.subject.startsWith('Até amanhã'))!
		expect(reminder.subject).toBe('Até amanhã, Lucía Pérez!')
		expect(reminder.text).toContain('Consultation em Estudio Nueve: ')
		expect(reminder.text).toMatch(new RegExp(`Gerencie: https?://\\S+/booked/${booked.id}\\?token=[0-9a-f]{64}`))
		expect(reminder.headers['list-unsubscribe']).toMatch(/\/unsubscribe\/client\?/)

		const params = new URL(/https?:\/\/\S+\/unsubscribe\/client\?\S+/.exec(reminder.text)![0]).searchParams
		await unsubscribeClient(verifyClientUnsubscribe(params)!)
		const next = at(day(72), '15:00')
		await book(next)
		expect((await sendDueReminders(new Date(Date.parse(next) - 1440 * 60_000 + 30_000))).sent).toBe(0)
	})
})
