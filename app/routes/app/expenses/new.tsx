import { data } from 'react-router'
import { requireExpenses, expensesMember } from '#app/.server/expenses/access.ts'
import { submitAddForm } from '#app/.server/expenses/expenses.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { memberClock } from '#app/.server/query.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { ExpenseRowsForm } from '#app/components/expenses/expense-rows-form.tsx'
import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { blankExpenseRow } from '#app/lib/schemas/expenses.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/new'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('newExpenses')

/** Rows the form starts with. */
const START_ROWS = 3

export async function loader({ context }: Route.LoaderArgs) {
	const { organization, active } = await expensesMember(context)
	if (!active) return { active: false as const }
	const blank = blankExpenseRow(memberClock(organization).today)
	return { active: true as const, blank, start: Array.from({ length: START_ROWS }, () => blank) }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireExpenses(context)
	const formData = await request.formData()
	// Save, and (without JavaScript) conform's list intents: "Add a row", a row's remove.
	if (formData.get('intent') !== 'save' && !formData.has('__intent__')) return errorResponse(400, 'badRequest')
	const outcome = await submitAddForm(user.userId, organization.id, formData, getLocale(context))
	if (outcome.kind === 'reply') return data({ result: outcome.result }, { status: outcome.status })
	const count = outcome.kind === 'added' ? outcome.count : 0
	return redirectWithToast('/app/expenses', { type: 'success', title: 'expenses:toast.added', values: { count } })
}

export default function NewExpensesScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('expenses')
	return (
		<div className="grid min-w-0 max-w-6xl grid-cols-1 gap-6">
			<Link
				to="/app/expenses"
				className="inline-flex min-h-11 w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground sm:min-h-0"
			>
				<ArrowLeftIcon className="size-4" aria-hidden="true" />
				{t('back')}
			</Link>
			<h1 className="text-2xl font-semibold tracking-tight">{t('add')}</h1>
			{loaderData.active ? (
				<ExpenseRowsForm start={loaderData.start} blank={loaderData.blank} result={actionData?.result} />
			) : (
				<ModuleOffer ns="expenses" moduleId={MODULES.expenses.id} />
			)}
		</div>
	)
}
