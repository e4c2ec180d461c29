/**
 * Notification preferences, per user and organization (docs/product.md, Settings ›
 * Notifications). No row means the defaults: email notifications and transaction alerts on,
 * weekly reports off. Stored in private.notification_preferences; every call checks membership.
 * Who is told is decided with the module's settings in audience.ts.
 */
import { asSystem, sql, type Tx } from '../db/index.ts'
import { NOTIFICATION_DEFAULTS, type NotificationKind } from '#app/lib/schemas/settings.ts'

export type Preferences = Record<NotificationKind, boolean>

export async function getPreferences(userId: string, organizationId: string): Promise<Preferences> {
	const { rows } = await asSystem((trx) =>
		sql<{ email_notifications: boolean; transaction_alerts: boolean; weekly_reports: boolean }>`
			select email_notifications, transaction_alerts, weekly_reports from private.notification_preferences
			where user_id = ${userId} and organization_id = ${organizationId}`.execute(trx),
	)
	const row = rows[0]
	if (!row) return { ...NOTIFICATION_DEFAULTS }
	return { emailNotifications: row.email_notifications, transactionAlerts: row.transaction_alerts, weeklyReports: row.weekly_reports }
}

async function isMember(trx: Tx, userId: string, organizationId: string) {
	const row = await trx
		.selectFrom('organization_members')
		.select('user_id')
		.where('organization_id', '=', organizationId)
		.where('user_id', '=', userId)
		.executeTakeFirst()
	return row !== undefined
}

/** Saves all three toggles; false when the user is not a member of the organization. */
export async function savePreferences(userId: string, organizationId: string, prefs: Preferences) {
	return asSystem(async (trx) => {
		if (!(await isMember(trx, userId, organizationId))) return false
		await sql`insert into private.notification_preferences (user_id, organization_id, email_notifications, transaction_alerts, weekly_reports)
			values (${userId}, ${organizationId}, ${prefs.emailNotifications}, ${prefs.transactionAlerts}, ${prefs.weeklyReports})
			on conflict (user_id, organization_id) do update set email_notifications = excluded.email_notifications,
			  transaction_alerts = excluded.transaction_alerts, weekly_reports = excluded.weekly_reports, updated_at = now()`.execute(trx)
		return true
	})
}

/** Turns one toggle off (the unsubscribe link); false when the user is not a member. */
export async function turnOff(userId: string, organizationId: string, kind: NotificationKind) {
	const current = await getPreferences(userId, organizationId)
	return savePreferences(userId, organizationId, { ...current, [kind]: false })
}
