/**
 * Who may use Expense Tracking (docs/product.md, Expense Tracking): the module's activation and
 * the role it is configured for, read the way Invoicing reads its own (app/.server/invoices/list.ts).
 * Without the module the screens say what it would do and link to the marketplace; actions answer 403.
 */
import type { RouterContextProvider } from 'react-router'
import { errorResponse } from '#app/lib/errors.ts'
import { MODULES } from '#app/lib/modules.ts'
import type { Role } from '#app/lib/roles.ts'
import { requireMember } from '../auth/session.ts'
import { asUser } from '../db/index.ts'
import { mayUseModule } from '../marketplace/modules.ts'

export const EXPENSES_MODULE_ID = MODULES.expenses.id

/** Whether the member may use Expense Tracking: not activated, configured for a higher role, or usable. */
export type ExpensesAccess = 'inactive' | 'hidden' | 'usable'

/** How the organization's Expense Tracking module stands for a member of `role`. */
export async function expensesAccess(userId: string, organizationId: string, role: Role): Promise<ExpensesAccess> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_modules')
			.select('default_visibility')
			.where('organization_id', '=', organizationId)
			.where('module_id', '=', EXPENSES_MODULE_ID)
			.executeTakeFirst(),
	)
	if (!row) return 'inactive'
	return mayUseModule(row.default_visibility, role) ? 'usable' : 'hidden'
}

/**
 * The member of an expense screen and whether the module is active for them: a module configured
 * for a higher role answers 403; an inactive one lets the screen say so (`active: false`).
 */
export async function expensesMember(context: Readonly<RouterContextProvider>) {
	const member = requireMember(context)
	const access = await expensesAccess(member.user.userId, member.organization.id, member.organization.role)
	if (access === 'hidden') errorResponse(403, 'forbidden')
	return { ...member, active: access === 'usable' }
}

/** For an action (and the receipt route): the member, when Expense Tracking is usable; else a 403, nothing done. */
export async function requireExpenses(context: Readonly<RouterContextProvider>) {
	const member = await expensesMember(context)
	if (!member.active) errorResponse(403, 'forbidden')
	return member
}
