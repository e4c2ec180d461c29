import { answerDraftSubmission, newInvoiceValues, submitDraftForm } from '#app/.server/invoices/drafts.ts'
import { invoicingMember, requireInvoicing } from '#app/.server/invoices/list.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { listClientChoices } from '#app/.server/payments/clients.ts'
import { memberClock } from '#app/.server/query.ts'
import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { InvoiceForm } from '#app/components/invoices/invoice-form.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/new'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('newInvoice')

export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization, active } = await invoicingMember(context)
	if (!active) return { active: false as const }
	return {
		active: true as const,
		start: newInvoiceValues(memberClock(organization).today, getLocale(context)),
		choices: await listClientChoices(user.userId, organization.id),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireInvoicing(context)
	const formData = await request.formData()
	const intent = formData.get('intent')
	// Save, save and send, and (without JavaScript) conform's list intents: "Add a line", a line's remove.
	if (intent !== 'save' && intent !== 'send' && !formData.has('__intent__')) return errorResponse(400, 'badRequest')
	return answerDraftSubmission(await submitDraftForm(user.userId, organization.id, null, formData, getLocale(context)))
}

export default function NewInvoiceScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('invoices')
	return (
		<div className="grid min-w-0 max-w-5xl grid-cols-1 gap-6">
			<Link
				to="/app/invoices"
				className="inline-flex min-h-11 w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground sm:min-h-0"
			>
				<ArrowLeftIcon className="size-4" aria-hidden="true" />
				{t('back')}
			</Link>
			<h1 className="text-2xl font-semibold tracking-tight">{t('newTitle')}</h1>
			{loaderData.active ? (
				<InvoiceForm start={loaderData.start} choices={loaderData.choices} result={actionData?.result} refusal={actionData?.refusal} />
			) : (
				<ModuleOffer ns="invoices" moduleId={MODULES.invoicing.id} />
			)}
		</div>
	)
}
