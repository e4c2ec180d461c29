import { getLocale } from '#app/.server/i18n.ts'
import { invoicingMember, requireInvoicing } from '#app/.server/invoices/list.ts'
import { answerScheduleSubmission, newScheduleValues, ownsRecurringUpgrade, submitScheduleForm } from '#app/.server/invoices/recurring.ts'
import { listClientChoices } from '#app/.server/payments/clients.ts'
import { memberClock } from '#app/.server/query.ts'
import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { RecurringForm } from '#app/components/invoices/recurring-form.tsx'
import { RecurringUpgradeNotice } from '#app/components/invoices/recurring-list.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/recurring-new'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('newRecurringInvoice')

export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization, active } = await invoicingMember(context)
	if (!active) return { active: false as const }
	const today = memberClock(organization).today
	const [upgrade, choices] = await Promise.all([
		ownsRecurringUpgrade(user.userId, organization.id),
		listClientChoices(user.userId, organization.id),
	])
	return { active: true as const, upgrade, today, start: newScheduleValues(today, getLocale(context)), choices }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireInvoicing(context)
	const formData = await request.formData()
	// Save, and (without JavaScript) conform's list intents: "Add a line", a line's remove.
	if (formData.get('intent') !== 'save' && !formData.has('__intent__')) return errorResponse(400, 'badRequest')
	const today = memberClock(organization).today
	return answerScheduleSubmission(await submitScheduleForm(user.userId, organization.id, null, formData, getLocale(context), today))
}

export default function NewRecurringInvoiceScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('recurring')
	return (
		<div className="grid max-w-5xl min-w-0 grid-cols-1 gap-6">
			<Link
				to="/app/invoices/recurring"
				className="inline-flex min-h-11 w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground sm:min-h-0"
			>
				<ArrowLeftIcon className="size-4" aria-hidden="true" />
				{t('back')}
			</Link>
			<h1 className="text-2xl font-semibold tracking-tight">{t('newTitle')}</h1>
			{!loaderData.active ? (
				<ModuleOffer ns="invoices" moduleId={MODULES.invoicing.id} />
			) : !loaderData.upgrade ? (
				<RecurringUpgradeNotice hasSchedules={false} />
			) : (
				<RecurringForm
					start={loaderData.start}
					choices={loaderData.choices}
					result={actionData?.result}
					refusal={actionData?.refusal}
					submitLabel={t('form.create')}
					today={loaderData.today}
				/>
			)}
		</div>
	)
}
