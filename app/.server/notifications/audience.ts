/**
 * Who may be told what (docs/product.md, Settings › Notifications; docs/security.md,
 * Notifications): the one place that decides the recipients of every notification mail.
 *
 * A notification tells about a module's data (bookings, payments), so it follows what decides
 * who sees that data on the screens, then what the organization and the member asked for:
 * 1. the module: a kind whose module must be activated (bookings) reaches nobody without it;
 * 2. the module's "Email notifications" switch (Module detail › Configuration): off, nobody;
 * 3. the module's default visibility: only the roles that may open the module (owners only,
 *    administrators and owners …; `mayUseModule`, the check of the booking screens);
 * 4. the member's own toggle for the kind (Settings › Notifications; no row: the default).
 * Payments are core screens that every member sees, so their notices need no module; when the
 * organization has activated P2P Transaction Tracking, its switch and visibility apply to them.
 */
import { MODULES } from '#app/lib/modules.ts'
import { NOTIFICATION_DEFAULTS, type NotificationKind } from '#app/lib/schemas/settings.ts'
import type { Role } from '#app/lib/roles.ts'
import { asSystem, sql } from '../db/index.ts'
import { mayUseModule } from '../marketplace/modules.ts'

/** The module (supabase/seed.sql's `feature_type`) each kind tells about, and whether the kind needs it activated. */
export const NOTIFICATION_MODULES: Record<NotificationKind, { feature: string; required: boolean }> = {
	// A public booking exists only with the Appointment Booking module.
	emailNotifications: { feature: MODULES.booking.featureType, required: true },
	// Payments and their weekly figures: the transactions screens, open to every member.
	transactionAlerts: { feature: MODULES.p2p.featureType, required: false },
	weeklyReports: { feature: MODULES.p2p.featureType, required: false },
}

const PREFERENCE_COLUMN: Record<NotificationKind, string> = {
	emailNotifications: 'email_notifications',
	transactionAlerts: 'transaction_alerts',
	weeklyReports: 'weekly_reports',
}

export type Recipient = { userId: string; email: string; language: string | null }

/**
 * The members of the organization who may be told of `kind` now, with their address and
 * language, in joining order: the module's activation, switch and visibility, then each
 * member's toggle (see the top of this file). Read in one transaction, at the moment of sending.
 */
export async function recipientsFor(organizationId: string, kind: NotificationKind): Promise<Recipient[]> {
	const { feature, required } = NOTIFICATION_MODULES[kind]
	const column = sql.ref(`np.${PREFERENCE_COLUMN[kind]}`)
	return asSystem(async (trx) => {
		const { rows: modules } = await sql<{ default_visibility: string; email_notifications: boolean }>`
			select om.default_visibility, om.email_notifications
			from public.organization_modules om join public.modules md on md.id = om.module_id
			where om.organization_id = ${organizationId} and md.feature_type = ${feature}
			order by om.activated_at limit 1`.execute(trx)
		const module = modules[0]
		if (!module && required) return []
		if (module && !module.email_notifications) return []
		const { rows } = await sql<{ user_id: string; role: Role; email: string; preferred_language: string | null }>`
			select m.user_id, m.role, u.email, p.preferred_language
			from public.organization_members m
			join auth.users u on u.id = m.user_id and u.deleted_at is null and u.email is not null
			left join public.profiles p on p.user_id = m.user_id
			left join private.notification_preferences np on np.user_id = m.user_id and np.organization_id = m.organization_id
			where m.organization_id = ${organizationId} and coalesce(${column}, ${NOTIFICATION_DEFAULTS[kind]})
			order by m.joined_at, m.user_id`.execute(trx)
		return rows
			.filter((r) => !module || mayUseModule(module.default_visibility, r.role))
			.map((r) => ({ userId: r.user_id, email: r.email, language: r.preferred_language }))
	})
}
