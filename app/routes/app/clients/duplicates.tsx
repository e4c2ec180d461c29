import { requireMember } from '#app/.server/auth/session.ts'
import { dismissDuplicates, listDuplicatePairs, listRecentMerges, ownsCrmEnterprise, undoClientMerge } from '#app/.server/crm/merges.ts'
import { getClient, mergeClients } from '#app/.server/payments/clients.ts'
import { memberClock } from '#app/.server/query.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { PipelinesHeader } from '#app/components/crm/pipelines.tsx'
import { ConfirmMerge, DuplicatePairs, RecentMerges, type ConfirmStep } from '#app/components/crm/duplicates.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { dateIn } from '#app/lib/dates.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/duplicates'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('clientDuplicates')

const HERE = '/app/clients/duplicates'

/**
 * Possible duplicates and recent merges (docs/product.md, Clients › Duplicates and merges), with
 * CRM Enterprise; otherwise the offer. `?keep=…&merge=…` asks before merging.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	if (!(await ownsCrmEnterprise(user.userId, organization.id))) return { enterprise: false, pairs: [], merges: [], confirm: null }
	const url = new URL(request.url)
	const clock = memberClock(organization)
	const [pairs, merges, confirm] = await Promise.all([
		listDuplicatePairs(user.userId, organization.id),
		listRecentMerges(user.userId, organization.id),
		confirmStep(user.userId, organization.id, url.searchParams),
	])
	return {
		enterprise: true,
		pairs,
		merges: merges.map((m) => ({
			id: m.id,
			keptId: m.keptId,
			keptName: m.keptName,
			mergedName: m.mergedName,
			mergedDate: dateIn(clock.timezone, new Date(m.mergedAt)),
			undoUntilDate: dateIn(clock.timezone, new Date(m.undoUntil)),
			undone: m.undoneAt !== null,
		})),
		confirm,
	}
}

/** The question before a merge: both clients of the organization, and two of them. */
async function confirmStep(userId: string, organizationId: string, params: URLSearchParams): Promise<ConfirmStep | null> {
	const keep = params.get('keep')
	const merge = params.get('merge')
	if (!isUuid(keep) || !isUuid(merge) || keep === merge) return null
	const [k, m] = await Promise.all([getClient(userId, organizationId, keep), getClient(userId, organizationId, merge)])
	if (!k || !m) return null
	return { keep: { id: k.client.id, name: k.client.name }, merge: { id: m.client.id, name: m.client.name } }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	const form = await request.formData()
	const intent = form.get('intent')
	if (intent !== 'merge' && intent !== 'dismiss' && intent !== 'undo') return errorResponse(400, 'badRequest')
	if (!(await ownsCrmEnterprise(user.userId, organization.id)))
		return redirectWithToast(HERE, { type: 'error', title: 'clients:duplicates.refusals.upgrade_inactive' })
	if (intent === 'merge') {
		const keep = form.get('keep')
		const merge = form.get('merge')
		if (!isUuid(keep) || !isUuid(merge)) return errorResponse(400, 'badRequest')
		const merged = await mergeClients(user.userId, organization.id, keep, merge)
		if (!merged.ok) return redirectWithToast(HERE, { type: 'error', title: `clients:merge.refusals.${merged.code}` })
		return redirectWithToast(`/app/clients/${keep}`, { type: 'success', title: 'clients:merge.done' })
	}
	if (intent === 'dismiss') {
		const a = form.get('a')
		const b = form.get('b')
		if (!isUuid(a) || !isUuid(b)) return errorResponse(400, 'badRequest')
		const dismissed = await dismissDuplicates(user.userId, organization.id, a, b)
		if (!dismissed.ok) return redirectWithToast(HERE, { type: 'error', title: `clients:duplicates.refusals.${dismissed.code}` })
		return redirectWithToast(HERE, { type: 'success', title: 'clients:duplicates.dismissed' })
	}
	const mergeId = form.get('mergeId')
	if (!isUuid(mergeId)) return errorResponse(400, 'badRequest')
	const undone = await undoClientMerge(user.userId, organization.id, mergeId)
	if (!undone.ok) return redirectWithToast(HERE, { type: 'error', title: `clients:duplicates.refusals.${undone.code}` })
	return redirectWithToast(`/app/clients/${undone.clientId}`, { type: 'success', title: 'clients:duplicates.undone' })
}

export default function DuplicatesScreen({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('clients')
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<PipelinesHeader back="clients" />
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('duplicates.title')}</h1>
				<p className="text-sm text-muted-foreground">{t('duplicates.subtitle')}</p>
			</div>
			{loaderData.enterprise ? (
				<>
					{loaderData.confirm ? <ConfirmMerge step={loaderData.confirm} /> : null}
					<DuplicatePairs pairs={loaderData.pairs} />
					<RecentMerges merges={loaderData.merges} />
				</>
			) : (
				<ModuleOffer ns="clients" prefix="duplicates.offer" moduleId={MODULES.crm.id} testId="crm-enterprise-offer" />
			)}
		</div>
	)
}
