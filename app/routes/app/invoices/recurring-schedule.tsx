import { getLocale } from '#app/.server/i18n.ts'
import { invoicingMember, requireInvoicing } from '#app/.server/invoices/list.ts'
import {
	answerScheduleSubmission,
	getSchedule,
	ownsRecurringUpgrade,
	scheduleAction,
	scheduleFormValues,
	submitScheduleForm,
} from '#app/.server/invoices/recurring.ts'
import { listClientChoices } from '#app/.server/payments/clients.ts'
import { memberClock } from '#app/.server/query.ts'
import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { RecurringForm } from '#app/components/invoices/recurring-form.tsx'
import {
	ConfirmDelete,
	RecurringUpgradeNotice,
	ScheduleActions,
	ScheduleHistory,
	ScheduleSummary,
} from '#app/components/invoices/recurring-list.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/recurring-schedule'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta: Route.MetaFunction = (args) =>
	pageMeta(args, 'recurringInvoice', args.loaderData && args.loaderData.active ? args.loaderData.schedule.clientName : undefined)

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const { user, organization, active } = await invoicingMember(context)
	if (!active) return { active: false as const }
	// An id that is not a uuid, or a schedule of another organization, is simply not found here.
	invariantResponse(isUuid(params.scheduleId), 404)
	const [schedule, upgrade, choices] = await Promise.all([
		getSchedule(user.userId, organization.id, params.scheduleId),
		ownsRecurringUpgrade(user.userId, organization.id),
		listClientChoices(user.userId, organization.id),
	])
	invariantResponse(schedule, 404)
	const clientText = choices.find((c) => c.id === schedule.clientId)?.value ?? null
	return {
		active: true as const,
		upgrade,
		today: memberClock(organization).today,
		schedule,
		start: scheduleFormValues(schedule, clientText),
		choices,
		deleting: new URL(request.url).searchParams.get('delete') === '1',
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const { user, organization } = await requireInvoicing(context)
	invariantResponse(isUuid(params.scheduleId), 404)
	// Another organization's schedule (or none) is not found, whatever the form holds.
	invariantResponse(await getSchedule(user.userId, organization.id, params.scheduleId), 404)
	const formData = await request.formData()
	const intent = formData.get('intent')
	const here = `/app/invoices/recurring/${params.scheduleId}`
	if (intent === 'pause' || intent === 'resume' || intent === 'delete') {
		formData.set('scheduleId', params.scheduleId)
		return scheduleAction(user.userId, organization, formData, here)
	}
	// Save, and (without JavaScript) conform's list intents: "Add a line", a line's remove.
	if (intent !== 'save' && !formData.has('__intent__')) return errorResponse(400, 'badRequest')
	const today = memberClock(organization).today
	return answerScheduleSubmission(
		await submitScheduleForm(user.userId, organization.id, params.scheduleId, formData, getLocale(context), today),
	)
}

export default function RecurringScheduleScreen({ loaderData, actionData }: Route.ComponentProps) {
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
			{loaderData.active ? (
				<Schedule data={loaderData} actionData={actionData} />
			) : (
				<ModuleOffer ns="invoices" moduleId={MODULES.invoicing.id} />
			)}
		</div>
	)
}

function Schedule({
	data,
	actionData,
}: {
	data: Extract<Route.ComponentProps['loaderData'], { active: true }>
	actionData: Route.ComponentProps['actionData']
}) {
	const { t } = useTranslation('recurring')
	const { schedule } = data
	const client = schedule.clientName || t('noClient')
	return (
		<>
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h1 className="text-2xl font-semibold tracking-tight">
					{t('editTitle')}: {client}
				</h1>
				<ScheduleActions schedule={schedule} client={client} canResume={data.upgrade} deleteHref="?delete=1" />
			</div>
			{data.deleting ? <ConfirmDelete scheduleId={schedule.id} client={client} cancelHref="." /> : null}
			{data.upgrade ? null : <RecurringUpgradeNotice hasSchedules />}
			<ScheduleSummary schedule={schedule} />
			<ScheduleHistory rows={schedule.history} nextRun={schedule.active ? schedule.nextRun : null} />
			{data.upgrade ? (
				<section aria-labelledby="schedule-edit" className="grid min-w-0 gap-3">
					<h2 id="schedule-edit" className="text-lg font-semibold">
						{t('form.details')}
					</h2>
					<RecurringForm
						start={data.start}
						choices={data.choices}
						result={actionData && 'result' in actionData ? actionData.result : undefined}
						refusal={actionData && 'refusal' in actionData ? actionData.refusal : undefined}
						submitLabel={t('form.save')}
						today={data.today}
					/>
				</section>
			) : null}
		</>
	)
}
