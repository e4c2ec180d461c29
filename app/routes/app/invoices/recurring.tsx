import { invoicingMember, requireInvoicing } from '#app/.server/invoices/list.ts'
import { listSchedules, ownsRecurringUpgrade, scheduleAction } from '#app/.server/invoices/recurring.ts'
import { TablePagination } from '#app/components/data-table/data-table.tsx'
import { ArrowLeftIcon, PlusIcon } from '#app/components/icons.tsx'
import { ConfirmDelete, RecurringEmpty, RecurringUpgradeNotice, ScheduleTable } from '#app/components/invoices/recurring-list.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { readPage } from '#app/lib/table-params.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/recurring'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('recurringInvoices')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization, active } = await invoicingMember(context)
	if (!active) return { active: false as const }
	const params = new URL(request.url).searchParams
	const [list, upgrade] = await Promise.all([
		listSchedules(user.userId, organization.id, { page: readPage(params) }),
		ownsRecurringUpgrade(user.userId, organization.id),
	])
	const asked = params.get('delete')
	const deleting = isUuid(asked) ? (list.rows.find((r) => r.id === asked) ?? null) : null
	return { active: true as const, upgrade, ...list, deleting }
}

/** Pause, resume or delete a schedule of the list (`scheduleId`), then the list again with a toast. */
export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireInvoicing(context)
	return scheduleAction(user.userId, organization, await request.formData(), backTo(request))
}

/** The list's page the form was on (`?page=N`), without the deletion's question. */
function backTo(request: Request) {
	const page = readPage(new URL(request.url).searchParams)
	return page > 1 ? `/app/invoices/recurring?page=${page}` : '/app/invoices/recurring'
}

export default function RecurringInvoicesScreen({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('recurring')
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<Link
				to="/app/invoices"
				className="inline-flex min-h-11 w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground sm:min-h-0"
			>
				<ArrowLeftIcon className="size-4" aria-hidden="true" />
				{t('toInvoices')}
			</Link>
			<div className="flex flex-wrap items-start justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				{loaderData.active && loaderData.upgrade ? (
					<Button asChild>
						<Link to="/app/invoices/recurring/new">
							<PlusIcon aria-hidden="true" />
							{t('new')}
						</Link>
					</Button>
				) : null}
			</div>
			{loaderData.active ? <Schedules data={loaderData} /> : <ModuleOffer ns="invoices" moduleId={MODULES.invoicing.id} />}
		</div>
	)
}

function Schedules({ data }: { data: Extract<Route.ComponentProps['loaderData'], { active: true }> }) {
	const { t } = useTranslation('recurring')
	const back = data.page > 1 ? `?page=${data.page}` : '.'
	return (
		<>
			{data.upgrade ? null : <RecurringUpgradeNotice hasSchedules={data.total > 0} />}
			{data.deleting ? (
				<ConfirmDelete scheduleId={data.deleting.id} client={data.deleting.clientName || t('noClient')} cancelHref={back} />
			) : null}
			{data.total === 0 ? (
				data.upgrade ? (
					<RecurringEmpty />
				) : null
			) : (
				<>
					<ScheduleTable rows={data.rows} canResume={data.upgrade} />
					<TablePagination page={data.page} pageSize={data.pageSize} total={data.total} totalCapped={false} rowCount={data.rows.length} />
				</>
			)}
		</>
	)
}
