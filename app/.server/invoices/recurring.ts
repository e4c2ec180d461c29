/**
 * Recurring invoices (docs/product.md, Recurring invoices): the upgrade "Recurring Invoices" of
 * Invoicing bills a client the same lines every week, month or year. The schedules and their
 * rules are the database's (supabase/migrations/20261207200000_recurring_invoices.sql); here are
 * the screens' reads and writes, and the scheduler's job that makes and sends what is due.
 *
 * The job `recurring-invoices` (app/.server/scheduler.ts, docs/decisions/036-job-runner.md) has one
 * key per schedule and period, `{schedule}:{yyyy-mm-dd}`, due from the period's date in the
 * organization's zone. Once across instances, three ways:
 *
 * 1. the scheduler's claim (private.job_runs): one instance runs a key, another skips it;
 * 2. public.make_recurring_invoice makes, sends and records the period's invoice in one
 *    transaction, with a unique (schedule, period): a run taken over after a crash finds the
 *    invoice made and makes none (`already_made`);
 * 3. the mail is recorded before it goes (`mailInvoice`, private.invoice_mails: the rule of
 *    `deliverOnce`, per invoice), so a takeover mails the invoice only if its mail did not go.
 *
 * The job acts as a member, as the database's functions ask: the schedule's author while they are
 * a member of its organization, else its first owner.
 */
import { randomUUID } from 'node:crypto'
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { DEFAULT_DUE_DAYS } from '#app/lib/invoices.ts'
import { MODULES } from '#app/lib/modules.ts'
import { BLANK_LINE } from '#app/lib/schemas/invoices.ts'
import { recurringSchemaIn, type Cadence, type RecurringValues } from '#app/lib/schemas/recurring.ts'
import { asSystem, asUser, dbErrorCode, sql, type Tx } from '../db/index.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { isUuid } from '#app/lib/uuid.ts'
import { log, logError } from '../log.ts'
import { clamp, DEFAULT_PAGE_SIZE, MAX_PAGE, memberClock } from '../query.ts'
import { registerJob, runDueJobs, type ScheduledJob } from '../scheduler.ts'
import { redirectWithToast } from '../toast.ts'
import { mailInvoice } from './mail.ts'
import { invoicePageToken, newPageToken } from './sending.ts'

export const RECURRING_JOB = 'recurring-invoices'
/** The upgrade that turns schedules on (app/lib/modules.ts). */
export const RECURRING_UPGRADE_ID = MODULES.invoicing.upgrades.recurring.id
/** The most keys one tick starts: the rest are due at the next tick. */
const KEYS_PER_TICK = 1000
/** The history a schedule's page shows, latest first. */
export const HISTORY_LIMIT = 200

/** Why a schedule was stopped by the database (recurring_invoices.paused_reason), or why a save was refused. */
export const PAUSE_REASONS = [
	'client_removed',
	'module_inactive',
	'upgrade_inactive',
	'invoice_without_client',
	'invoice_empty',
	'discount_over_subtotal',
] as const
export type PauseReason = (typeof PAUSE_REASONS)[number]

export const SAVE_REFUSALS = ['not_found', 'upgrade_inactive', 'invoice_without_client', 'clientNotFound', 'clientAmbiguous'] as const
export type SaveRefusal = (typeof SAVE_REFUSALS)[number]

// ---------------------------------------------------------------------------------------------
// The job
// ---------------------------------------------------------------------------------------------

/**
 * The keys due at `now`: each active schedule of an organization with the upgrade whose next
 * period is on or before the organization's today (its booking timezone, else UTC). A zone ahead
 * of UTC is at most a day ahead: the index scan stops at UTC's tomorrow.
 */
export async function dueRecurringKeys(now: Date, only?: { organizationId: string; scheduleId: string }): Promise<string[]> {
	const { rows } = await asSystem((trx) =>
		sql<{ key: string }>`
			select r.id::text || ':' || to_char(r.next_run, 'YYYY-MM-DD') as key
			from public.recurring_invoices r
			where r.next_run is not null
				and r.next_run <= (${now}::timestamptz at time zone 'UTC')::date + 1
				and r.next_run <= (${now}::timestamptz at time zone coalesce(
					(select s.timezone from public.booking_settings s where s.organization_id = r.organization_id), 'UTC'))::date
				and exists (select 1 from public.organization_module_upgrades u
					where u.organization_id = r.organization_id and u.upgrade_id = ${RECURRING_UPGRADE_ID})
				${only ? sql`and r.id = ${only.scheduleId} and r.organization_id = ${only.organizationId}` : sql``}
			order by r.next_run, r.id
			limit ${KEYS_PER_TICK}`.execute(trx),
	)
	return rows.map((r) => r.key)
}

const KEY = /^([0-9a-f-]{36}):(\d{4}-\d{2}-\d{2})$/

/** What one run did: the function's answer, and whether the invoice's mail was queued now. */
export type RunOutcome = { result: string; invoiceId: string | null; mailed: boolean }

/**
 * Runs one key: makes and sends the period's invoice as the schedule's runner, then mails it. A
 * period not yet reached by the database's clock throws (the claim stays unfinished and the key is
 * tried again after the stale time); everything else returns (the key is done: a paused, edited or
 * ended schedule has another key, or none).
 */
export async function runRecurringKey(key: string): Promise<RunOutcome> {
	const parsed = KEY.exec(key)
	if (!parsed) return { result: 'not_found', invoiceId: null, mailed: false }
	const [, scheduleId, period] = parsed as unknown as [string, string, string]
	const runner = await asSystem(async (trx) => {
		const { rows } = await sql<{ organization_id: string; user_id: string | null }>`
			select r.organization_id, coalesce(
				(select m.user_id from public.organization_members m where m.organization_id = r.organization_id and m.user_id = r.created_by),
				(select m.user_id from public.organization_members m where m.organization_id = r.organization_id and m.role = 'owner'
					order by m.joined_at, m.user_id limit 1)) as user_id
			from public.recurring_invoices r where r.id = ${scheduleId}`.execute(trx)
		return rows[0]
	})
	if (!runner?.user_id) return { result: 'not_found', invoiceId: null, mailed: false }
	const { organization_id: organizationId, user_id: userId } = runner
	const invoiceId = randomUUID()
	const token = newPageToken(invoiceId)
	const made = await asUser(userId, async (trx) => {
		const { rows } = await sql<{ result: string; made_invoice: string | null }>`
			select result, made_invoice from public.make_recurring_invoice(${scheduleId}, ${period}::date, ${invoiceId}, ${token.hash}, ${token.sealed})`.execute(
			trx,
		)
		return rows[0]!
	})
	if (made.result === 'not_yet') throw new Error(`The period ${period} of schedule ${scheduleId} has not begun in its organization's zone`)
	if (made.result === 'made') {
		const { sent } = await mailInvoice(userId, organizationId, invoiceId, token.token)
		log({ event: 'recurring_invoice_made', scheduleId, period, invoiceId, mailed: sent })
		return { result: made.result, invoiceId, mailed: sent }
	}
	if (made.result === 'already_made' && made.made_invoice) {
		// A run taken over: its invoice's mail goes if it did not (mailInvoice sends it once).
		const link = await invoicePageToken(userId, organizationId, made.made_invoice)
		if (!link) {
			log({ level: 'warn', event: 'recurring_invoice_link_unknown', scheduleId, period, invoiceId: made.made_invoice })
			return { result: made.result, invoiceId: made.made_invoice, mailed: false }
		}
		const { sent } = await mailInvoice(userId, organizationId, made.made_invoice, link)
		return { result: made.result, invoiceId: made.made_invoice, mailed: sent }
	}
	if (made.result !== 'not_due') log({ level: 'warn', event: 'recurring_invoice_paused', scheduleId, period, reason: made.result })
	return { result: made.result, invoiceId: null, mailed: false }
}

/** The scheduler's job: a key per schedule and period due (see the top of this file). */
export const recurringJob: ScheduledJob = {
	name: RECURRING_JOB,
	deadlineMs: 2 * 60_000,
	due: (now) => dueRecurringKeys(now),
	run: async (key) => {
		await runRecurringKey(key)
	},
}

/** Registers the recurring invoices job with the scheduler (at start-up). */
export function registerRecurringInvoices() {
	registerJob(recurringJob)
}

/**
 * Runs a schedule's due period now, through the scheduler's own claim (so with the job of any
 * instance, once): a schedule saved or resumed on its first date sends its invoice at once rather
 * than at the next tick. True when a run happened here.
 */
export async function runScheduleNow(organizationId: string, scheduleId: string, now = new Date()): Promise<boolean> {
	const ran = await runDueJobs(now, [{ ...recurringJob, due: (at) => dueRecurringKeys(at, { organizationId, scheduleId }) }])
	return ran.length > 0
}

// ---------------------------------------------------------------------------------------------
// The screens
// ---------------------------------------------------------------------------------------------

/** Whether the organization owns the Recurring Invoices upgrade. */
export async function ownsRecurringUpgrade(userId: string, organizationId: string): Promise<boolean> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_module_upgrades')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('upgrade_id', '=', RECURRING_UPGRADE_ID)
			.executeTakeFirst(),
	)
	return row !== undefined
}

/** One schedule in the list. Amounts are numeric strings. */
export type ScheduleRow = {
	id: string
	clientId: string | null
	clientName: string | null
	cadence: Cadence
	startDate: string
	nextRun: string | null
	madeCount: number
	maxCount: number | null
	endDate: string | null
	active: boolean
	pausedReason: PauseReason | null
	total: string
}

/** A schedule's total as its invoices will have it: the lines, less the discount, plus the tax (the invoices' triggers' rule). */
const TOTAL = sql<string>`(round((coalesce((select sum(round(l.quantity * l.unit_price, 2)) from public.recurring_invoice_lines l
	where l.recurring_invoice_id = r.id), 0) - r.discount) * (1 + r.tax_rate / 100), 2))::text`

const ROW_COLUMNS = sql`r.id, r.client_id as "clientId", c.name as "clientName", r.cadence,
	to_char(r.anchor_date, 'YYYY-MM-DD') as "startDate", to_char(r.next_run, 'YYYY-MM-DD') as "nextRun",
	r.made_count as "madeCount", r.max_count as "maxCount", to_char(r.end_date, 'YYYY-MM-DD') as "endDate",
	r.active, r.paused_reason as "pausedReason", ${TOTAL} as total`

/** A page of the organization's schedules, newest first, as the member (RLS). */
export async function listSchedules(
	userId: string,
	organizationId: string,
	options: { page?: number | null } = {},
): Promise<{ rows: ScheduleRow[]; page: number; pageSize: number; total: number }> {
	const page = clamp(options.page, 1, MAX_PAGE, 1)
	const pageSize = DEFAULT_PAGE_SIZE
	return asUser(userId, async (trx) => {
		const { rows } = await sql<ScheduleRow>`
			select ${ROW_COLUMNS} from public.recurring_invoices r
			left join public.clients c on c.id = r.client_id
			where r.organization_id = ${organizationId}
			order by r.created_at desc, r.id desc offset ${(page - 1) * pageSize} limit ${pageSize}`.execute(trx)
		const counted = await sql<{ n: number }>`
			select count(*)::int as n from public.recurring_invoices where organization_id = ${organizationId}`.execute(trx)
		return { rows, page, pageSize, total: counted.rows[0]?.n ?? 0 }
	})
}

/** A schedule as its form and page show it: its fields, lines and history. */
export type ScheduleDetail = ScheduleRow & {
	clientEmail: string | null
	language: string
	daysUntilDue: number
	discount: string
	taxRate: string
	notes: string
	lines: Array<{ description: string; quantity: string; unitPrice: string }>
	history: Array<{
		periodDate: string
		invoiceId: string
		number: number | null
		state: string
		total: string
		balance: string
		createdAt: string
	}>
}

/** One schedule of the organization with its lines and its latest HISTORY_LIMIT invoices; null when it is not one of them. */
export async function getSchedule(userId: string, organizationId: string, scheduleId: string): Promise<ScheduleDetail | null> {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<Omit<ScheduleDetail, 'lines' | 'history'>>`
			select ${ROW_COLUMNS}, c.email as "clientEmail", r.language, r.days_until_due as "daysUntilDue",
				r.discount::text as discount, r.tax_rate::text as "taxRate", coalesce(r.notes, '') as notes
			from public.recurring_invoices r
			left join public.clients c on c.id = r.client_id
			where r.id = ${scheduleId} and r.organization_id = ${organizationId}`.execute(trx)
		const schedule = rows[0]
		if (!schedule) return null
		const lines = await sql<ScheduleDetail['lines'][number]>`
			select l.description, trim_scale(l.quantity)::text as quantity, l.unit_price::text as "unitPrice"
			from public.recurring_invoice_lines l where l.recurring_invoice_id = ${scheduleId} order by l.position`.execute(trx)
		const history = await sql<ScheduleDetail['history'][number]>`
			select to_char(x.period_date, 'YYYY-MM-DD') as "periodDate", x.invoice_id as "invoiceId", o.number, o.state,
				o.total::text as total, o.balance::text as balance, x.created_at::text as "createdAt"
			from public.recurring_invoice_runs x
			join public.invoice_overview o on o.id = x.invoice_id
			where x.recurring_invoice_id = ${scheduleId}
			order by x.period_date desc limit ${HISTORY_LIMIT}`.execute(trx)
		return { ...schedule, lines: lines.rows, history: history.rows }
	})
}

/**
 * The client named by the form, as the invoice form reads it (app/.server/invoices/drafts.ts): the
 * one it had (`clientId`) while the typed text is still their name, else the organization's one
 * client of that name (any case), or of that name and e-mail when typed "Name <email>" (as the
 * suggestions write namesakes).
 */
async function resolveClient(trx: Tx, organizationId: string, values: Pick<RecurringValues, 'client' | 'clientId'>) {
	const text = values.client.trim()
	const withEmail = /^(.+?)\s*<([^<>\s]+@[^<>\s]+)>$/.exec(text)
	const { rows } = await sql<{ id: string; name: string; email: string | null }>`
		select c.id, c.name, c.email from public.clients c
		where c.organization_id = ${organizationId} and lower(c.name) = any(${[text.toLowerCase(), (withEmail?.[1] ?? '').toLowerCase()]}::text[])`.execute(
		trx,
	)
	let candidates = rows.filter((c) => c.name.toLowerCase() === text.toLowerCase())
	if (candidates.length === 0 && withEmail) {
		const [, name = '', email = ''] = withEmail
		candidates = rows.filter((c) => c.name.toLowerCase() === name.toLowerCase() && c.email?.toLowerCase() === email.toLowerCase())
	}
	if (values.clientId && candidates.some((c) => c.id === values.clientId)) return { ok: true as const, id: values.clientId }
	if (candidates.length === 1) return { ok: true as const, id: candidates[0]!.id }
	return { ok: false as const, code: candidates.length === 0 ? ('clientNotFound' as const) : ('clientAmbiguous' as const) }
}

/**
 * Creates (no `scheduleId`) or changes a schedule of the organization with its lines, in one
 * transaction, as the member (RLS; the database gates it on the upgrade and sets its next period).
 * Returns its id and next period, or why it was refused.
 */
export async function saveSchedule(
	userId: string,
	organizationId: string,
	scheduleId: string | null,
	values: RecurringValues,
): Promise<{ ok: true; id: string; nextRun: string | null } | { ok: false; code: SaveRefusal }> {
	try {
		return await asUser(userId, async (trx) => {
			const client = await resolveClient(trx, organizationId, values)
			if (!client.ok) return client
			const fields = {
				client_id: client.id,
				language: values.language,
				cadence: values.cadence,
				anchor_date: values.startDate,
				end_date: values.endDate,
				max_count: values.maxCount,
				days_until_due: values.daysUntilDue,
				discount: values.discount,
				tax_rate: values.taxRate,
				notes: values.notes || null,
			}
			const saved = scheduleId
				? await trx
						.updateTable('recurring_invoices')
						.set(fields)
						.where('id', '=', scheduleId)
						.where('organization_id', '=', organizationId)
						.returning('id')
						.executeTakeFirst()
				: await trx
						.insertInto('recurring_invoices')
						.values({ ...fields, organization_id: organizationId, created_by: userId })
						.returning('id')
						.executeTakeFirst()
			if (!saved) return { ok: false as const, code: 'not_found' as const }
			await trx.deleteFrom('recurring_invoice_lines').where('recurring_invoice_id', '=', saved.id).execute()
			await trx
				.insertInto('recurring_invoice_lines')
				.values(
					values.lines.map((line, position) => ({
						organization_id: organizationId,
						recurring_invoice_id: saved.id,
						position,
						description: line.description,
						quantity: line.quantity,
						unit_price: line.unitPrice,
					})),
				)
				.execute()
			const { rows } = await sql<{ next_run: string | null }>`
				select to_char(next_run, 'YYYY-MM-DD') as next_run from public.recurring_invoices where id = ${saved.id}`.execute(trx)
			return { ok: true as const, id: saved.id, nextRun: rows[0]?.next_run ?? null }
		})
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'upgrade_inactive' || code === 'invoice_without_client') return { ok: false, code }
		throw error
	}
}

/** Pauses or resumes a schedule of the organization (resuming starts again from today); false when it is not one of them. */
export async function setScheduleActive(
	userId: string,
	organizationId: string,
	scheduleId: string,
	active: boolean,
): Promise<{ ok: true; nextRun: string | null } | { ok: false; code: SaveRefusal }> {
	try {
		const row = await asUser(userId, (trx) =>
			trx
				.updateTable('recurring_invoices')
				.set({ active })
				.where('id', '=', scheduleId)
				.where('organization_id', '=', organizationId)
				.returning(sql<string | null>`to_char(next_run, 'YYYY-MM-DD')`.as('next_run'))
				.executeTakeFirst(),
		)
		return row ? { ok: true, nextRun: row.next_run } : { ok: false, code: 'not_found' }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'upgrade_inactive' || code === 'invoice_without_client') return { ok: false, code }
		throw error
	}
}

/** Deletes a schedule of the organization and its history (the invoices it made stay); false when it is not one of them. */
export async function deleteSchedule(userId: string, organizationId: string, scheduleId: string): Promise<boolean> {
	const result = await asUser(userId, (trx) =>
		trx.deleteFrom('recurring_invoices').where('id', '=', scheduleId).where('organization_id', '=', organizationId).executeTakeFirst(),
	)
	return result.numDeletedRows > 0n
}

/**
 * After a save or a resume: when the schedule's next period is today (or before) in the
 * organization's zone, its invoice is made and sent now. A failure is logged: the job tries again.
 */
export async function sendDueNow(organizationId: string, scheduleId: string, nextRun: string | null, today: string) {
	if (!nextRun || nextRun > today) return false
	try {
		return await runScheduleNow(organizationId, scheduleId)
	} catch (error) {
		logError(error, { event: 'recurring_invoice_now_failed', scheduleId })
		return false
	}
}

// ---------------------------------------------------------------------------------------------
// The form
// ---------------------------------------------------------------------------------------------

/** The form's values as it shows them (amounts in dot form; the page writes them in its language). */
export type ScheduleFormValues = {
	clientId: string
	client: string
	language: string
	cadence: string
	startDate: string
	ends: string
	endDate: string
	count: string
	daysUntilDue: string
	discount: string
	taxRate: string
	notes: string
	lines: Array<{ description: string; quantity: string; unitPrice: string }>
}

/** A new schedule's form: monthly from today (the organization's), no end, due DEFAULT_DUE_DAYS later, in the page's language, one line. */
export function newScheduleValues(today: string, language: string): ScheduleFormValues {
	return {
		clientId: '',
		client: '',
		language,
		cadence: 'monthly',
		startDate: today,
		ends: 'never',
		endDate: '',
		count: '',
		daysUntilDue: String(DEFAULT_DUE_DAYS),
		discount: '',
		taxRate: '',
		notes: '',
		lines: [{ ...BLANK_LINE }],
	}
}

/** A schedule's form, filled from the schedule; its client as the suggestions write them (`clientText`, "Name <email>" for namesakes). */
export function scheduleFormValues(schedule: ScheduleDetail, clientText: string | null): ScheduleFormValues {
	return {
		clientId: schedule.clientId ?? '',
		client: clientText ?? schedule.clientName ?? '',
		language: schedule.language,
		cadence: schedule.cadence,
		startDate: schedule.startDate,
		ends: schedule.endDate ? 'onDate' : schedule.maxCount ? 'afterCount' : 'never',
		endDate: schedule.endDate ?? '',
		count: schedule.maxCount ? String(schedule.maxCount) : '',
		daysUntilDue: String(schedule.daysUntilDue),
		discount: Number(schedule.discount) > 0 ? schedule.discount : '',
		taxRate: Number(schedule.taxRate) > 0 ? schedule.taxRate : '',
		notes: schedule.notes,
		lines: schedule.lines.length ? schedule.lines : [{ ...BLANK_LINE }],
	}
}

/** The field a refusal of the save belongs under. */
const FIELD_OF: Partial<Record<SaveRefusal, string>> = {
	clientNotFound: 'client',
	clientAmbiguous: 'client',
	invoice_without_client: 'client',
}

export type ScheduleSubmission =
	| { kind: 'reply'; result: SubmissionResult<string[]>; status: number; refusal?: SaveRefusal }
	| { kind: 'saved'; id: string; created: boolean; sentNow: boolean }

/**
 * A post of the schedule form: checked with the page's language (conform's list intents, "Add a
 * line" and a line's remove, come back as the form with its values), saved, and, when its next
 * period is the organization's `today` or earlier, its invoice made and sent at once.
 */
export async function submitScheduleForm(
	userId: string,
	organizationId: string,
	scheduleId: string | null,
	formData: FormData,
	language: string,
	today: string,
): Promise<ScheduleSubmission> {
	const submission = parseWithZod(formData, { schema: recurringSchemaIn(language) })
	if (submission.status !== 'success')
		return { kind: 'reply', result: submission.reply(), status: submission.status === 'error' ? 400 : 200 }
	const saved = await saveSchedule(userId, organizationId, scheduleId, submission.value)
	if (!saved.ok) {
		const field = FIELD_OF[saved.code]
		if (field) return { kind: 'reply', result: submission.reply({ fieldErrors: { [field]: [saved.code] } }), status: 400 }
		return { kind: 'reply', result: submission.reply(), status: saved.code === 'not_found' ? 404 : 409, refusal: saved.code }
	}
	const sentNow = await sendDueNow(organizationId, saved.id, saved.nextRun, today)
	return { kind: 'saved', id: saved.id, created: scheduleId === null, sentNow }
}

/** The answer to a post of the form: the form again (with its status), or the schedule's page with a toast. */
export function answerScheduleSubmission(outcome: ScheduleSubmission) {
	if (outcome.kind === 'reply') return data({ result: outcome.result, refusal: outcome.refusal }, { status: outcome.status })
	return redirectWithToast(`/app/invoices/recurring/${outcome.id}`, {
		type: 'success',
		title: outcome.created ? 'recurring:toast.created' : 'recurring:toast.saved',
		...(outcome.sentNow ? { description: 'recurring:toast.firstSent' } : {}),
	})
}

/**
 * A schedule's pause, resume or delete, posted from the list or the schedule's page
 * (`intent`, `scheduleId`): done, then `back` (or, after a deletion from the schedule's page,
 * the list) with a toast. A schedule that is not the organization's, or a malformed id, is
 * "no longer exists"; an intent of none of these is a 400.
 */
export async function scheduleAction(userId: string, organization: { id: string; timezone: string }, formData: FormData, back: string) {
	const intent = formData.get('intent')
	if (intent !== 'pause' && intent !== 'resume' && intent !== 'delete') return errorResponse(400, 'badRequest')
	const id = formData.get('scheduleId')
	if (typeof id !== 'string' || !isUuid(id)) return redirectWithToast(back, { type: 'error', title: 'recurring:toast.notFound' })
	if (intent === 'delete') {
		const deleted = await deleteSchedule(userId, organization.id, id)
		const list = '/app/invoices/recurring'
		return deleted
			? redirectWithToast(back.startsWith(`${list}/`) ? list : back, { type: 'success', title: 'recurring:toast.deleted' })
			: redirectWithToast(back, { type: 'error', title: 'recurring:toast.notFound' })
	}
	const changed = await setScheduleActive(userId, organization.id, id, intent === 'resume')
	if (!changed.ok) {
		return redirectWithToast(back, {
			type: 'error',
			title: changed.code === 'not_found' ? 'recurring:toast.notFound' : `recurring:refusals.${changed.code}`,
		})
	}
	const sentNow = intent === 'resume' && (await sendDueNow(organization.id, id, changed.nextRun, memberClock(organization).today))
	return redirectWithToast(back, {
		type: 'success',
		title: intent === 'pause' ? 'recurring:toast.paused' : 'recurring:toast.resumed',
		...(sentNow ? { description: 'recurring:toast.firstSent' } : {}),
	})
}
