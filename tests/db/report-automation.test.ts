/**
 * Report automation (supabase/migrations/20261208300000_report_automation.sql,
 * app/.server/reports/automation.ts, app/.server/reports/automation-job.ts): owners and
 * administrators save it only with the Automation upgrade and only to members; two instances
 * ticking at once mail each chosen member one weekly report (a PDF in their language) and one
 * threshold alert per week; a member who left gets nothing; the catch-up of a missed morning is
 * bounded to 24 hours; the "has not paid for N weeks" alert names the clients who lapsed. On
 * PGlite and on the PostgreSQL server.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import PostalMime from 'postal-mime'
import { describe, expect, test } from 'vitest'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { getAutomation, NO_AUTOMATION, saveAutomation, type AutomationSettings } from '#app/.server/reports/automation.ts'
import { automationJob, dueAutomationKeys, dueDay, runAutomationKey } from '#app/.server/reports/automation-job.ts'
import { runDueJobs } from '#app/.server/scheduler.ts'
import { addDays } from '#app/lib/dates.ts'
import { addMember, createUser, type TestUser } from './fixtures.ts'
import { useTemporaryDataDir } from './outbox.ts'
import { readPdf } from '../support/pdf-text.ts'

useTemporaryDataDir()

const REPORTS = 'b0000000-0000-4000-8000-000000000004'
const AUTOMATION = 'c0000000-0000-4000-8000-000000000011'

/** A Monday at least two weeks from now (UTC), so that the test's dates never depend on the day it runs. */
const MONDAY = (() => {
	const base = addDays(new Date().toISOString().slice(0, 10), 14)
	const weekday = new Date(`${base}T00:00:00Z`).getUTCDay()
	return addDays(base, (8 - weekday) % 7)
})()
const at = (day: string, time: string) => new Date(`${day}T${time}:00Z`)

type World = { owner: TestUser; admin: TestUser; member: TestUser }

async function world({ upgrade = true } = {}): Promise<World> {
	const owner = await createUser('Dueña Ñandú')
	const admin = await createUser('Admin Araújo')
	const member = await createUser('Miembro Común')
	await addMember(owner.orgId, admin.userId, 'administrator')
	await addMember(owner.orgId, member.userId, 'member')
	await asSystem(async (trx) => {
		await trx.updateTable('organizations').set({ name: 'Estúdio Ação' }).where('id', '=', owner.orgId).execute()
		await trx.updateTable('profiles').set({ preferred_language: 'es' }).where('user_id', '=', owner.userId).execute()
		await trx.updateTable('profiles').set({ preferred_language: 'pt-BR' }).where('user_id', '=', admin.userId).execute()
		if (upgrade) {
			let module = await trx
				.selectFrom('organization_modules')
				.select('id')
				.where('organization_id', '=', owner.orgId)
				.where('module_id', '=', REPORTS)
				.executeTakeFirst()
			module ??= await trx
				.insertInto('organization_modules')
				.values({ organization_id: owner.orgId, module_id: REPORTS })
				.returning('id')
				.executeTakeFirstOrThrow()
			await trx
				.insertInto('organization_module_upgrades')
				.values({ organization_id: owner.orgId, organization_module_id: module.id, upgrade_id: AUTOMATION })
				.execute()
		}
	})
	return { owner, admin, member }
}

const settings = (over: Partial<AutomationSettings> = {}) => ({ ...NO_AUTOMATION, ...over })

async function pay(orgId: string, client: string, amount: number, day: string) {
	await asSystem(async (trx) => {
		let found = await trx
			.selectFrom('clients')
			.select('id')
			.where('organization_id', '=', orgId)
			.where('name', '=', client)
			.executeTakeFirst()
		found ??= await trx
			.insertInto('clients')
			.values({ organization_id: orgId, name: client, status: 'active' })
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx.insertInto('transactions').values({ organization_id: orgId, client_id: found.id, amount, date_received: day }).execute()
	})
}

type Mail = { to: string; subject: string; text: string; pdf: Uint8Array | null }

/** The mails in the outbox for `to`, with their PDF attachment. */
async function mailsFor(to: string): Promise<Mail[]> {
	const outbox = path.join(process.env.DATA_DIR!, 'outbox')
	let files: string[] = []
	try {
		files = readdirSync(outbox).filter((f) => f.endsWith(`-${to.replace(/[^a-zA-Z0-9@._-]/g, '_')}.eml`))
	} catch {
		return []
	}
	const mails: Mail[] = []
	for (const file of files.sort()) {
		const parsed = await PostalMime.parse(readFileSync(path.join(outbox, file)))
		const pdf = parsed.attachments.find((a) => a.mimeType === 'application/pdf')
		mails.push({
			to: parsed.to?.[0]?.address ?? '',
			// Amounts carry no-break spaces ("2.000,50 US$"), read as plain ones.
			subject: (parsed.subject ?? '').replace(/\u00a0|\u202f/g, ' '),
			text: (parsed.text ?? '').replace(/\u00a0|\u202f/g, ' '),
			pdf: pdf ? new Uint8Array(typeof pdf.content === 'string' ? Buffer.from(pdf.content) : pdf.content) : null,
		})
	}
	return mails
}

/** The job on this world's organization only (other tests' organizations share the database). */
const jobFor = (w: World) => ({ ...automationJob, due: (now: Date) => dueAutomationKeys(now, { organizationId: w.owner.orgId }) })

describe('saving', () => {
	test('owners and administrators save it, members are refused, and recipients must be members', async () => {
		const w = await world()
		const outsider = await createUser('Outsider')
		expect(await saveAutomation(w.member.userId, w.owner.orgId, settings({ weeklyReport: true }))).toEqual({ ok: false, code: 'forbidden' })
		expect((await getAutomation(w.owner.userId, w.owner.orgId)).settings).toEqual(NO_AUTOMATION)
		expect(await saveAutomation(w.owner.userId, w.owner.orgId, settings({ weeklyReport: true, recipients: [outsider.userId] }))).toEqual({
			ok: false,
			code: 'recipient_not_member',
		})
		expect((await getAutomation(w.owner.userId, w.owner.orgId)).settings).toEqual(NO_AUTOMATION)
		const chosen = settings({ monthlyReport: true, recipients: [w.member.userId], revenueThreshold: '1500.00', dormantWeeks: 4 })
		expect(await saveAutomation(w.admin.userId, w.owner.orgId, chosen)).toEqual({ ok: true })
		const read = await getAutomation(w.member.userId, w.owner.orgId)
		expect(read.owned).toBe(true)
		expect(read.settings).toEqual(chosen)
		expect(read.members.map((m) => m.userId).sort()).toEqual([w.owner.userId, w.admin.userId, w.member.userId].sort())
		// Another organization's owner neither reads nor writes it.
		expect((await getAutomation(outsider.userId, w.owner.orgId)).settings).toEqual(NO_AUTOMATION)
		expect(await saveAutomation(outsider.userId, w.owner.orgId, settings())).toEqual({ ok: false, code: 'forbidden' })
	})

	test('without the upgrade nothing is saved and nothing is due', async () => {
		const w = await world({ upgrade: false })
		expect(await saveAutomation(w.owner.userId, w.owner.orgId, settings({ weeklyReport: true, recipients: [w.owner.userId] }))).toEqual({
			ok: false,
			code: 'upgrade_inactive',
		})
		expect((await getAutomation(w.owner.userId, w.owner.orgId)).owned).toBe(false)
		// A row left from when the upgrade was owned (written as the system) is not run.
		await asSystem((trx) =>
			sql`alter table public.report_automations disable trigger report_automations_before_write`
				.execute(trx)
				.then(() =>
					trx
						.insertInto('report_automations')
						.values({ organization_id: w.owner.orgId, weekly_report: true, recipients: [w.owner.userId] })
						.execute(),
				)
				.finally(() => sql`alter table public.report_automations enable trigger report_automations_before_write`.execute(trx)),
		)
		expect(await dueAutomationKeys(at(MONDAY, '09:00'), { organizationId: w.owner.orgId })).toEqual([])
	})
})

describe('the job', () => {
	test('two instances at once: one weekly report (a PDF in each language) and one alert per member; a member who left gets nothing', async () => {
		const w = await world()
		const leaver = await createUser('Se Fue')
		await addMember(w.owner.orgId, leaver.userId, 'member')
		await pay(w.owner.orgId, 'Cliente Uno', 1200.5, addDays(MONDAY, -7))
		await pay(w.owner.orgId, 'Cliente Dos', 800, addDays(MONDAY, -2))
		await pay(w.owner.orgId, 'Cliente Dos', 99, addDays(MONDAY, -8)) // the week before: not in the report
		const recipients = [w.owner.userId, w.admin.userId, leaver.userId]
		expect(
			await saveAutomation(w.owner.userId, w.owner.orgId, settings({ weeklyReport: true, recipients, revenueThreshold: '2000' })),
		).toEqual({
			ok: true,
		})
		await asSystem((trx) =>
			trx.deleteFrom('organization_members').where('organization_id', '=', w.owner.orgId).where('user_id', '=', leaver.userId).execute(),
		)
		const job = jobFor(w)
		const now = at(MONDAY, '08:30')
		const [a, b] = await Promise.all([runDueJobs(now, [job]), runDueJobs(now, [job])])
		expect([...a, ...b]).toEqual([`report-automation:${w.owner.orgId}:${MONDAY}`])
		// Even a run of the same day with no claim (a takeover) sends nothing twice.
		await runAutomationKey(`${w.owner.orgId}:${MONDAY}`)
		await drainMail()

		const owner = await mailsFor(w.owner.email)
		expect(owner).toHaveLength(2)
		const weekly = owner.find((m) => m.subject.startsWith('Estúdio Ação: informe semanal, '))!
		const alert = owner.find((m) => m.subject === 'Estúdio Ação: más de 2.000,00 US$ recibidos esta semana')!
		expect(weekly.text).toContain('2.000,50 US$')
		expect(alert.text).toContain('2.000,50 US$')
		expect(alert.pdf).toBeNull()
		const pdf = await readPdf(weekly.pdf!)
		for (const expected of ['Informe semanal', 'Estúdio Ação', '2.000,50 US$', 'Página 1 de'])
			expect(pdf.text.replace(/\s+/g, ' ')).toContain(expected)
		expect(pdf.text).not.toContain('2099')

		const admin = await mailsFor(w.admin.email)
		expect(admin).toHaveLength(2)
		const adminPdf = await readPdf(admin.find((m) => m.pdf)!.pdf!)
		expect(adminPdf.text).toContain('Relatório semanal')
		expect(adminPdf.text).toContain('US$ 2.000,50')

		expect(await mailsFor(w.member.email)).toEqual([])
		expect(await mailsFor(leaver.email)).toEqual([])

		// The next morning: no report (not Monday), and no second alert for last week, even with more money in it.
		await pay(w.owner.orgId, 'Cliente Uno', 5000, addDays(MONDAY, -1))
		expect(await runDueJobs(at(addDays(MONDAY, 1), '08:05'), [job])).toEqual([`report-automation:${w.owner.orgId}:${addDays(MONDAY, 1)}`])
		await drainMail()
		expect(await mailsFor(w.owner.email)).toHaveLength(2)
		// The Monday after: the new week's report and its own alert.
		await pay(w.owner.orgId, 'Cliente Dos', 2500, addDays(MONDAY, 2))
		await runDueJobs(at(addDays(MONDAY, 7), '08:05'), [job])
		await drainMail()
		expect(await mailsFor(w.owner.email)).toHaveLength(4)
	})

	test('a missed morning is caught up within 24 hours, never later', () => {
		expect(dueDay(at(MONDAY, '07:59'), 'UTC')).toBe(addDays(MONDAY, -1))
		expect(dueDay(at(MONDAY, '08:00'), 'UTC')).toBe(MONDAY)
		expect(dueDay(at(addDays(MONDAY, 1), '07:59'), 'UTC')).toBe(MONDAY)
		expect(dueDay(at(addDays(MONDAY, 1), '08:00'), 'UTC')).toBe(addDays(MONDAY, 1))
		// 08:00 in New York is 13:00 UTC (12:00 in summer): before it, the day before is still the one due.
		expect(dueDay(at(MONDAY, '11:00'), 'America/New_York')).toBe(addDays(MONDAY, -1))
	})

	test('the "has not paid for N weeks" alert names the clients whose last payment passed N weeks last week, once', async () => {
		const w = await world()
		await pay(w.owner.orgId, 'Lapsed Lúcia', 40, addDays(MONDAY, -3 * 7 - 2)) // last paid 23 days before: lapsed last week
		await pay(w.owner.orgId, 'Lapsed Lúcia', 60, addDays(MONDAY, -40))
		await pay(w.owner.orgId, 'Still Paying', 10, addDays(MONDAY, -3 * 7 - 2))
		await pay(w.owner.orgId, 'Still Paying', 10, addDays(MONDAY, -3))
		await pay(w.owner.orgId, 'Long Gone', 10, addDays(MONDAY, -60))
		await saveAutomation(w.owner.userId, w.owner.orgId, settings({ recipients: [w.member.userId], dormantWeeks: 3 }))
		await runAutomationKey(`${w.owner.orgId}:${MONDAY}`)
		await runAutomationKey(`${w.owner.orgId}:${MONDAY}`)
		await drainMail()
		const mails = await mailsFor(w.member.email)
		expect(mails).toHaveLength(1)
		expect(mails[0]!.subject).toBe('Estúdio Ação: 1 clients have not paid for 3 weeks')
		expect(mails[0]!.text).toContain('Lapsed Lúcia')
		expect(mails[0]!.text).toContain('$100.00')
		expect(mails[0]!.text).not.toMatch(/Still Paying|Long Gone/)
	})
})
