import { data, redirect } from 'react-router'
import { expensesMember, requireExpenses } from '#app/.server/expenses/access.ts'
import { deleteExpense, getExpense, submitEditForm } from '#app/.server/expenses/expenses.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { DeleteExpense, ExpenseForm } from '#app/components/expenses/expense-form.tsx'
import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/expense'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('expense')

export async function loader({ params, context }: Route.LoaderArgs) {
	const { user, organization, active } = await expensesMember(context)
	// Not an id, or another organization's expense: not found, whether or not the module is active.
	const expense = await getExpense(user.userId, organization.id, params.expenseId)
	if (!expense) errorResponse(404, 'notFound')
	if (!active) return { active: false as const }
	return {
		active: true as const,
		start: {
			id: expense.id,
			kind: expense.kind,
			version: expense.version,
			spentOn: expense.spentOn,
			vendor: expense.vendor,
			amount: expense.amount,
			category: expense.category,
			paymentMethod: expense.paymentMethod ?? '',
			note: expense.note ?? '',
			hasReceipt: expense.receiptKey !== null,
			importSource: expense.importSource,
		},
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const { user, organization } = await requireExpenses(context)
	// Another organization's expense, or no expense at all: not found, before the form is read.
	if (!(await getExpense(user.userId, organization.id, params.expenseId))) errorResponse(404, 'notFound')
	const formData = await request.formData()
	const intent = formData.get('intent')
	if (intent === 'delete') {
		if (!(await deleteExpense(user.userId, organization.id, params.expenseId))) errorResponse(404, 'notFound')
		return redirectWithToast('/app/expenses', { type: 'success', title: 'expenses:toast.deleted' })
	}
	if (intent !== 'save') return errorResponse(400, 'badRequest')
	const outcome = await submitEditForm(user.userId, organization.id, params.expenseId, formData, getLocale(context))
	switch (outcome.kind) {
		case 'reply':
			return data({ result: outcome.result }, { status: outcome.status })
		case 'refused':
			if (outcome.code === 'not_found') errorResponse(404, 'notFound')
			return redirectWithToast(`/app/expenses/${params.expenseId}`, { type: 'error', title: 'expenses:toast.stale' })
		case 'saved':
			return redirectWithToast('/app/expenses', { type: 'success', title: 'expenses:toast.saved' })
		default:
			return redirect('/app/expenses')
	}
}

export default function ExpenseScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation(['expenses', 'imports'])
	return (
		<div className="grid min-w-0 max-w-3xl grid-cols-1 gap-6">
			<Link
				to="/app/expenses"
				className="inline-flex min-h-11 w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground sm:min-h-0"
			>
				<ArrowLeftIcon className="size-4" aria-hidden="true" />
				{t('back')}
			</Link>
			{loaderData.active ? (
				<>
					<h1 className="text-2xl font-semibold tracking-tight">
						{loaderData.start.kind === 'refund' ? t('form.refundTitle') : t('form.title')}
					</h1>
					<ExpenseForm key={loaderData.start.version} start={loaderData.start} result={actionData?.result} />
					<DeleteExpense />
				</>
			) : (
				<ModuleOffer ns="expenses" moduleId={MODULES.expenses.id} />
			)}
		</div>
	)
}
