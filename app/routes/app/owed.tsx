import { requireBookingMember } from '#app/.server/booking/staff.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { listOwed, requestPayment } from '#app/.server/payments/owed.ts'
import { MAX_PAGE, clamp } from '#app/.server/query.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { OwedClient, OwedEmpty, OwedTotals } from '#app/components/payments/owed-list.tsx'
import { TablePagination } from '#app/components/data-table/data-table.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { formatMoney } from '#app/lib/format.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/owed'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('owed')

/** The page asked for (`?page=N`, 1 for anything else). */
function pageOf(request: Request) {
	return clamp(Number(new URL(request.url).searchParams.get('page') ?? 1), 1, MAX_PAGE, 1)
}

/** Back to the page the form was on, after a request. */
function backTo(request: Request) {
	const page = pageOf(request)
	return page > 1 ? `/app/owed?page=${page}` : '/app/owed'
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = await requireBookingMember(context)
	const owed = await listOwed(user.userId, organization.id, { page: pageOf(request), timezone: organization.timezone })
	return { ...owed, timezone: organization.timezone }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireBookingMember(context)
	const formData = await request.formData()
	if (formData.get('intent') !== 'request-payment') errorResponse(400, 'badRequest')
	const id = formData.get('expectationId')
	const back = backTo(request)
	// A malformed id names nothing: the same answer as an amount that is no longer owed.
	if (typeof id !== 'string' || !isUuid(id)) {
		return redirectWithToast(back, { type: 'error', title: 'transactions:owed.refusals.not_found' })
	}
	const result = await requestPayment(user.userId, organization.id, id)
	if (!result.ok) return redirectWithToast(back, { type: 'error', title: `transactions:owed.refusals.${result.code}` })
	return redirectWithToast(back, {
		type: 'success',
		title: 'transactions:owed.sent',
		description: 'transactions:owed.sentDescription',
		values: { email: result.email, amount: formatMoney(result.amount, getLocale(context)) },
	})
}

export default function OwedScreen({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('transactions')
	const { totals, groups, page, pageSize, timezone } = loaderData
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('owed.title')}</h1>
				<p className="text-sm text-muted-foreground">{t('owed.subtitle')}</p>
			</div>
			<OwedTotals totals={totals} />
			{totals.lines === 0 ? (
				<OwedEmpty />
			) : (
				<>
					{groups.map((group) => (
						<OwedClient key={group.clientId ?? group.lines[0]!.appointmentId} group={group} timezone={timezone} />
					))}
					<TablePagination page={page} pageSize={pageSize} total={totals.clients} totalCapped={false} rowCount={groups.length} />
				</>
			)}
		</div>
	)
}
