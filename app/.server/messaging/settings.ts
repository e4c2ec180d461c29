/**
 * Who may open Reminders & Messaging, and its invoice reminder settings (docs/product.md,
 * Reminders & Messaging): a member whose organization has the module active and whose role its
 * visibility lets in opens /app/messaging; owners and administrators change templates and
 * settings (the tables' policies say so too).
 */
import type { RouterContextProvider } from 'react-router'
import { errorResponse } from '#app/lib/errors.ts'
import { MODULES } from '#app/lib/modules.ts'
import { hasRole, type Role } from '#app/lib/roles.ts'
import type { MessagingSettingsValues } from '#app/lib/schemas/messaging.ts'
import { requireMember } from '../auth/session.ts'
import { asUser } from '../db/index.ts'
import { mayUseModule } from '../marketplace/modules.ts'

export const MESSAGING_MODULE_ID = MODULES.messaging.id

/** The roles that write the organization's templates and reminder settings. */
export const MESSAGING_EDITORS = ['owner', 'administrator'] as const satisfies readonly Role[]

/** Whether a member of `role` edits templates and settings. */
export function canEditMessaging(role: Role) {
	return hasRole(role, MESSAGING_EDITORS)
}

/** Whether the module is active for the organization, and whether the member's role may use it. */
export async function messagingAccess(userId: string, organizationId: string, role: Role): Promise<'inactive' | 'hidden' | 'usable'> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_modules')
			.select('default_visibility')
			.where('organization_id', '=', organizationId)
			.where('module_id', '=', MESSAGING_MODULE_ID)
			.executeTakeFirst(),
	)
	if (!row) return 'inactive'
	return mayUseModule(row.default_visibility, role) ? 'usable' : 'hidden'
}

/** For the messaging screen's loader and action: the member when the module is usable to them, else a translated 403. */
export async function requireMessagingMember(context: Readonly<RouterContextProvider>) {
	const member = requireMember(context)
	const access = await messagingAccess(member.user.userId, member.organization.id, member.organization.role)
	if (access !== 'usable') errorResponse(403, 'forbidden')
	return member
}

export type MessagingSettings = { invoiceReminders: boolean; daysBefore: number[]; daysAfter: number[] }

/** The organization's invoice reminder settings (the row made with the module). */
export async function getMessagingSettings(userId: string, organizationId: string): Promise<MessagingSettings | null> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('messaging_settings')
			.select(['invoice_reminders', 'days_before', 'days_after'])
			.where('organization_id', '=', organizationId)
			.executeTakeFirst(),
	)
	if (!row) return null
	return {
		invoiceReminders: row.invoice_reminders,
		daysBefore: [...row.days_before].sort((a, b) => a - b),
		daysAfter: [...row.days_after].sort((a, b) => a - b),
	}
}

/** Saves the settings (already checked by reminderSettingsSchema), as the member (RLS); false when no row was changed. */
export async function saveMessagingSettings(userId: string, organizationId: string, value: MessagingSettingsValues): Promise<boolean> {
	const result = await asUser(userId, (trx) =>
		trx
			.updateTable('messaging_settings')
			.set({ invoice_reminders: value.invoiceReminders, days_before: value.daysBefore, days_after: value.daysAfter })
			.where('organization_id', '=', organizationId)
			.executeTakeFirst(),
	)
	return result.numUpdatedRows > 0n
}
