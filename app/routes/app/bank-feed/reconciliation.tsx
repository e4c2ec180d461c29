import { requireMember } from '#app/.server/auth/session.ts'
import { getBankFeed, reconcile, removeStatement, uploadStatement } from '#app/.server/bank-feed/statements.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import {
	DiscrepancyList,
	NotIncomeTotals,
	StatementLines,
	StatementList,
	StatementUpload,
} from '#app/components/bank-feed/reconciliation.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/reconciliation'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('bankReconciliation')

const HERE = '/app/transactions/reconciliation'

/**
 * Bank reconciliation (docs/product.md, Bank feed; docs/decisions/049-bank-feed.md): any member
 * uploads an OFX/QFX statement, reads what is not income, the discrepancies and which app payments
 * each cash-out carried, removes a statement and reconciles again. Without the Bank Feed
 * Reconciliation upgrade the screen says what it would do, and every post answers 403.
 */
export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	return getBankFeed(user.userId, organization.id)
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	const form = await request.formData()
	const intent = form.get('intent')
	if (intent === 'upload') {
		const outcome = await uploadStatement(user.userId, organization.id, form.get('file'))
		if (!outcome.ok) {
			if ('code' in outcome) errorResponse(403, 'forbidden')
			return { error: outcome.error }
		}
		if (outcome.added === 0)
			return redirectWithToast(HERE, {
				type: 'info',
				title: 'imports:bankFeed.toast.nothingNew',
				description: 'imports:bankFeed.toast.nothingNewDetail',
				values: { duplicates: outcome.duplicates },
			})
		return redirectWithToast(HERE, {
			type: 'success',
			title: 'imports:bankFeed.toast.uploaded',
			description: 'imports:bankFeed.toast.uploadedDetail',
			values: { added: outcome.added, duplicates: outcome.duplicates, matched: outcome.matched, cashouts: outcome.cashouts },
		})
	}
	if (intent === 'remove') {
		const statementId = form.get('statementId')
		if (!isUuid(statementId)) errorResponse(400, 'badRequest')
		const outcome = await removeStatement(user.userId, statementId)
		if (outcome.ok)
			return redirectWithToast(HERE, {
				type: 'success',
				title: 'imports:bankFeed.toast.removed',
				description: 'imports:bankFeed.toast.removedDetail',
			})
		if (outcome.code === 'upgrade_inactive') errorResponse(403, 'forbidden')
		return redirectWithToast(HERE, { type: 'info', title: 'imports:bankFeed.toast.notFound' })
	}
	if (intent === 'reconcile') {
		if (!(await reconcile(user.userId, organization.id))) errorResponse(403, 'forbidden')
		return redirectWithToast(HERE, { type: 'success', title: 'imports:bankFeed.toast.reconciled' })
	}
	errorResponse(400, 'badRequest')
}

export default function Reconciliation({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('imports')
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('bankFeed.title')}</h1>
				<p className="text-sm text-muted-foreground">{t('bankFeed.description')}</p>
			</div>
			{loaderData.owned ? (
				<>
					<StatementUpload error={actionData?.error ?? null} />
					{loaderData.statements.length > 0 ? (
						<>
							<NotIncomeTotals totals={loaderData.totals} />
							<DiscrepancyList discrepancies={loaderData.discrepancies} />
						</>
					) : null}
					<StatementLines lines={loaderData.lines} />
					<StatementList statements={loaderData.statements} />
				</>
			) : (
				<ModuleOffer ns="imports" prefix="bankFeed.inactive" moduleId={MODULES.p2p.id} testId="bank-feed-inactive" />
			)}
		</div>
	)
}
