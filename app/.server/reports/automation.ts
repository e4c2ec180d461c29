/**
 * Report automation, the screen's side (docs/product.md, Reports › Automation): the settings of
 * an organization's scheduled reports and threshold alerts (public.report_automations), read by
 * any member and written by owners and administrators while the organization owns the Automation
 * upgrade. The database checks both again (RLS, its trigger: `upgrade_inactive`,
 * `recipient_not_member`). The job that mails them is ./automation-job.ts.
 */
import type { Role } from '#app/lib/roles.ts'
import type { AutomationValues } from '#app/lib/schemas/report-automation.ts'
import { asUser, dbErrorCode } from '../db/index.ts'
import { AUTOMATION_UPGRADE_ID, ownsReportUpgrade } from './overview-document.ts'

/** What the form holds: the reports, the recipients (user ids), the alerts (null: off). Amounts are numeric strings. */
export type AutomationSettings = {
	weeklyReport: boolean
	monthlyReport: boolean
	recipients: string[]
	revenueThreshold: string | null
	dormantWeeks: number | null
}

export const NO_AUTOMATION: AutomationSettings = {
	weeklyReport: false,
	monthlyReport: false,
	recipients: [],
	revenueThreshold: null,
	dormantWeeks: null,
}

/** The roles that change the automation (the others read it). */
export const AUTOMATION_EDITORS: readonly Role[] = ['owner', 'administrator']

/** A member who can be chosen as a recipient. */
export type AutomationMember = { userId: string; name: string; email: string | null }

/**
 * The screen's data, read as the member: whether the organization owns the upgrade, its settings
 * (the defaults when never saved) and its members, who can be chosen to receive the mails.
 */
export async function getAutomation(
	userId: string,
	organizationId: string,
): Promise<{ owned: boolean; settings: AutomationSettings; members: AutomationMember[] }> {
	const owned = await ownsReportUpgrade(userId, organizationId, AUTOMATION_UPGRADE_ID)
	return asUser(userId, async (trx) => {
		const row = await trx.selectFrom('report_automations').selectAll().where('organization_id', '=', organizationId).executeTakeFirst()
		const members = await trx
			.selectFrom('organization_members as m')
			.leftJoin('profiles as p', 'p.user_id', 'm.user_id')
			.select(['m.user_id', 'p.full_name', 'p.email'])
			.where('m.organization_id', '=', organizationId)
			.orderBy('m.joined_at')
			.orderBy('m.user_id')
			.execute()
		const memberIds = new Set(members.map((m) => m.user_id))
		return {
			owned,
			settings: row
				? {
						weeklyReport: row.weekly_report,
						monthlyReport: row.monthly_report,
						// A member who left is no longer shown (nor mailed: the job reads members when it runs).
						recipients: row.recipients.filter((id) => memberIds.has(id)),
						revenueThreshold: row.revenue_threshold === null ? null : String(row.revenue_threshold),
						dormantWeeks: row.dormant_weeks,
					}
				: NO_AUTOMATION,
			members: members.map((m) => ({ userId: m.user_id, name: m.full_name?.trim() || m.email || '—', email: m.email })),
		}
	})
}

export type SaveAutomationResult = { ok: true } | { ok: false; code: 'upgrade_inactive' | 'recipient_not_member' | 'forbidden' }

/**
 * Saves the organization's automation as the member (an owner or an administrator: RLS refuses
 * the others, `forbidden`). Without the upgrade `upgrade_inactive`; a recipient who is not a
 * member `recipient_not_member`. Nothing is changed on a refusal.
 */
export async function saveAutomation(
	userId: string,
	organizationId: string,
	values: Omit<AutomationValues, 'intent'>,
): Promise<SaveAutomationResult> {
	const row = {
		weekly_report: values.weeklyReport,
		monthly_report: values.monthlyReport,
		recipients: values.recipients,
		revenue_threshold: values.revenueThreshold,
		dormant_weeks: values.dormantWeeks,
	}
	try {
		const saved = await asUser(userId, (trx) =>
			trx
				.insertInto('report_automations')
				.values({ organization_id: organizationId, ...row })
				.onConflict((oc) => oc.column('organization_id').doUpdateSet(row))
				.returning('organization_id')
				.executeTakeFirst(),
		)
		return saved ? { ok: true } : { ok: false, code: 'forbidden' }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'upgrade_inactive' || code === 'recipient_not_member') return { ok: false, code }
		// Row-level security refused the write: the member is not an owner or an administrator.
		if (code === '42501') return { ok: false, code: 'forbidden' }
		throw error
	}
}
