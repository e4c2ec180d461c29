import {
	answerDraftSubmission,
	deleteDraft,
	draftFormValues,
	getInvoice,
	isOrganizationInvoice,
	submitDraftForm,
	type DraftRefusal,
} from '#app/.server/invoices/drafts.ts'
import {
	linkInvoicePayment,
	listInvoicePayments,
	listLinkablePayments,
	markInvoicePaid,
	unlinkInvoicePayment,
	voidInvoice,
	type InvoiceRefusal,
} from '#app/.server/invoices/links.ts'
import { invoicingMember, requireInvoicing } from '#app/.server/invoices/list.ts'
import { invoicePageLink } from '#app/.server/invoices/mail.ts'
import { invoicePageToken } from '#app/.server/invoices/sending.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { listClientChoices } from '#app/.server/payments/clients.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ArrowLeftIcon, Trash2Icon } from '#app/components/icons.tsx'
import { InvoiceForm } from '#app/components/invoices/invoice-form.tsx'
import {
	InvoiceActions,
	InvoiceFacts,
	InvoiceLinesAndTotals,
	LinkedPayments,
	LinkPayment,
	PublicLink,
} from '#app/components/invoices/invoice-view.tsx'
import { InvoiceStateBadge } from '#app/components/invoices/state-badge.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/invoice'

export const meta: Route.MetaFunction = (args) => {
	const data = args.loaderData
	const number = data && data.kind === 'sent' ? data.invoice.number : null
	return pageMeta(args, 'invoice', number === null ? null : `#${number}`)
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const { user, organization, active } = await invoicingMember(context)
	if (!active) return { kind: 'inactive' as const }
	// Not an id (e.g. a path Part of the app registers later, such as /app/invoices/recurring), or another organization's: not found.
	invariantResponse(isUuid(params.invoiceId), 404)
	const invoice = await getInvoice(user.userId, organization.id, params.invoiceId)
	invariantResponse(invoice, 404)
	const search = new URL(request.url).searchParams
	const confirm = search.get('confirm')
	if (invoice.state === 'draft') {
		const choices = await listClientChoices(user.userId, organization.id)
		const clientText = choices.find((c) => c.id === invoice.clientId)?.value ?? null
		return { kind: 'draft' as const, id: invoice.id, start: draftFormValues(invoice, clientText), choices, confirm }
	}
	const find = (search.get('find') ?? '').slice(0, 200)
	const owed = invoice.state === 'sent' || invoice.state === 'partly_paid' || invoice.state === 'overdue'
	const [payments, candidates, token] = await Promise.all([
		listInvoicePayments(user.userId, organization.id, invoice.id),
		owed ? listLinkablePayments(user.userId, organization.id, invoice.id, find) : [],
		invoicePageToken(user.userId, organization.id, invoice.id),
	])
	return { kind: 'sent' as const, invoice, payments, candidates, find, owed, link: token ? invoicePageLink(token) : null, confirm }
}

/** The toast of a refusal: its code's message. */
const refused = (code: InvoiceRefusal | DraftRefusal) => ({ type: 'error' as const, title: `invoices:refusals.${code}` })

export async function action({ request, params, context }: Route.ActionArgs) {
	const { user, organization } = await requireInvoicing(context)
	const id = params.invoiceId
	// Not an id, or another organization's invoice: not found, whatever the form holds.
	invariantResponse(isUuid(id) && (await isOrganizationInvoice(user.userId, organization.id, id)), 404)
	const formData = await request.formData()
	const intent = formData.get('intent')
	const here = `/app/invoices/${id}`
	const answer = (outcome: { ok: true } | { ok: false; code: InvoiceRefusal | DraftRefusal }, done: string, to = here) =>
		redirectWithToast(outcome.ok ? to : here, outcome.ok ? { type: 'success', title: `invoices:toast.${done}` } : refused(outcome.code))
	switch (intent) {
		case 'delete': {
			const deleted = await deleteDraft(user.userId, organization.id, id)
			return answer(deleted.ok ? { ok: true } : deleted, 'deleted', '/app/invoices')
		}
		case 'void':
			return answer(await voidInvoice(user.userId, organization.id, id), 'voided')
		case 'mark-paid':
			return answer(await markInvoicePaid(user.userId, organization.id, id), 'markedPaid')
		case 'link-payment': {
			const transaction = formData.get('transaction')
			// A malformed id names no payment: the same answer as a payment of another organization.
			if (!isUuid(transaction)) return answer({ ok: false, code: 'not_found' }, 'linked')
			return answer(await linkInvoicePayment(user.userId, organization.id, id, transaction), 'linked')
		}
		case 'unlink': {
			const match = formData.get('match')
			if (!isUuid(match)) return answer({ ok: false, code: 'not_found' }, 'unlinked')
			return answer(await unlinkInvoicePayment(user.userId, organization.id, id, match), 'unlinked')
		}
		case 'save':
		case 'send':
			return answerDraftSubmission(await submitDraftForm(user.userId, organization.id, id, formData, getLocale(context)))
		default:
			// "Add a line" and a line's remove button without JavaScript: conform's list intents.
			if (formData.has('__intent__'))
				return answerDraftSubmission(await submitDraftForm(user.userId, organization.id, id, formData, getLocale(context)))
			return errorResponse(400, 'badRequest')
	}
}

export default function InvoiceScreen({ loaderData, actionData }: Route.ComponentProps) {
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
			{loaderData.kind === 'inactive' ? (
				<>
					<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
					<ModuleOffer ns="invoices" moduleId={MODULES.invoicing.id} />
				</>
			) : loaderData.kind === 'draft' ? (
				<Draft data={loaderData} actionData={actionData} />
			) : (
				<Sent data={loaderData} />
			)}
		</div>
	)
}

type Loaded = Route.ComponentProps['loaderData']

function Draft({ data, actionData }: { data: Extract<Loaded, { kind: 'draft' }>; actionData: Route.ComponentProps['actionData'] }) {
	const { t } = useTranslation('invoices')
	const here = `/app/invoices/${data.id}`
	return (
		<>
			<div className="flex flex-wrap items-center gap-3">
				<h1 className="text-2xl font-semibold tracking-tight">{t('draftTitle')}</h1>
				<InvoiceStateBadge state="draft" />
			</div>
			<InvoiceForm
				key={data.start.version}
				start={data.start}
				choices={data.choices}
				result={actionData && 'result' in actionData ? actionData.result : undefined}
				refusal={actionData && 'refusal' in actionData ? actionData.refusal : undefined}
			/>
			{data.confirm === 'delete' ? (
				<section
					role="alertdialog"
					aria-labelledby="confirm-delete"
					className="grid gap-3 rounded-md border border-destructive/50 p-4 text-sm"
				>
					<h2 id="confirm-delete" className="font-semibold">
						{t('actions.delete.question')}
					</h2>
					<p>{t('actions.delete.explain')}</p>
					<div className="flex flex-wrap gap-2">
						<AppForm method="post" action={here}>
							<input type="hidden" name="intent" value="delete" />
							<Button type="submit" variant="destructive">
								{t('actions.delete.confirm')}
							</Button>
						</AppForm>
						<Button asChild variant="outline">
							<Link to={here}>{t('actions.keep')}</Link>
						</Button>
					</div>
				</section>
			) : (
				<Button asChild variant="ghost" className="w-fit text-destructive">
					<Link to={`${here}?confirm=delete`}>
						<Trash2Icon aria-hidden="true" />
						{t('actions.delete.button')}
					</Link>
				</Button>
			)}
		</>
	)
}

function Sent({ data }: { data: Extract<Loaded, { kind: 'sent' }> }) {
	const { t } = useTranslation('invoices')
	const { invoice } = data
	const here = `/app/invoices/${invoice.id}`
	return (
		<>
			<div className="flex flex-wrap items-center gap-3">
				<h1 className="text-2xl font-semibold tracking-tight">{t('numbered', { number: invoice.number })}</h1>
				<InvoiceStateBadge state={invoice.state} />
			</div>
			{invoice.markedPaid ? <p className="text-sm text-muted-foreground">{t('detail.markedPaid')}</p> : null}
			<InvoiceFacts invoice={invoice} />
			<InvoiceLinesAndTotals invoice={invoice} />
			{invoice.state === 'void' ? null : <PublicLink url={data.link} />}
			<LinkedPayments payments={data.payments} code={invoice.memoCode} action={here} />
			{data.owed ? <LinkPayment candidates={data.candidates} find={data.find} action={here} /> : null}
			<InvoiceActions invoice={invoice} confirm={data.confirm} here={here} />
		</>
	)
}

export function ErrorBoundary() {
	return <GeneralErrorBoundary statusHandlers={{ 404: () => <InvoiceNotFound /> }} />
}

function InvoiceNotFound() {
	const { t } = useTranslation('invoices')
	return (
		<div className="grid gap-4">
			<h2 className="text-xl font-semibold">{t('notFound.title')}</h2>
			<p className="text-muted-foreground">{t('notFound.description')}</p>
			<Link to="/app/invoices" className="w-fit text-primary underline-offset-4 hover:underline">
				{t('back')}
			</Link>
		</div>
	)
}
