import { useTranslation } from '#app/lib/use-translation.ts'

import { requireMember } from '#app/.server/auth/session.ts'
import { listReviewQueue, resolveReview } from '#app/.server/payments/imports/queries.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { ImportHeader } from '#app/components/payments/imports.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/review'
import { isUuid } from '#app/lib/uuid.ts'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('reviewQueue')

/** The choice that creates a client named as the payer. */
const NEW_CLIENT = 'new'

export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	return listReviewQueue(user.userId, organization.id)
}

/** One payment's client, optionally remembered as the payer's alias. */
export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	const form = await request.formData()
	const transactionId = form.get('transactionId')
	const clientId = form.get('clientId')
	const back = '/app/transactions/import/review'
	if (!isUuid(transactionId)) return redirectWithToast(back, { type: 'error', title: 'imports:toast.transactionNotFound' })
	if (typeof clientId !== 'string' || !(isUuid(clientId) || clientId === NEW_CLIENT))
		return { transactionId, error: 'clientRequired' as const }
	const saveAlias = form.get('saveAlias') === 'on'
	const result = await resolveReview(user.userId, organization.id, {
		transactionId,
		clientId: clientId === NEW_CLIENT ? null : clientId,
		saveAlias,
	})
	if (!result.ok) {
		if (result.error === 'clientExists') return { transactionId, error: 'clientExists' as const }
		return redirectWithToast(back, {
			type: 'error',
			title: result.error === 'notFound' ? 'imports:toast.transactionNotFound' : 'imports:toast.clientNotFound',
		})
	}
	if (saveAlias)
		return redirectWithToast(back, { type: 'success', title: 'imports:toast.resolvedAlias', values: { count: result.updated } })
	return redirectWithToast(back, { type: 'success', title: 'imports:toast.resolved' })
}

/** The queue's columns, in order: the phone cards' labels. */
const REVIEW_COLUMNS = ['date', 'payer', 'amount', 'why', 'client'] as const

export default function ReviewQueue({ loaderData, actionData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation(['imports', 'transactions'])
	const { rows, clients } = loaderData
	const nameOf = new Map(clients.map((c) => [c.id, c.email ? `${c.name} <${c.email}>` : c.name]))
	return (
		<div className="grid grid-cols-1 gap-6">
			<ImportHeader title={t('review.title')} description={t('review.description')} current="review" />
			<Card>
				<CardContent>
					{rows.length === 0 ? (
						<p className="text-sm text-muted-foreground">{t('review.empty')}</p>
					) : (
						<Table data-testid="review-queue" cards={REVIEW_COLUMNS.map((c) => t(`review.columns.${c}`))}>
							<TableHeader>
								<TableRow>
									<TableHead scope="col">{t('review.columns.date')}</TableHead>
									<TableHead scope="col">{t('review.columns.payer')}</TableHead>
									<TableHead scope="col" className="text-right">
										{t('review.columns.amount')}
									</TableHead>
									<TableHead scope="col">{t('review.columns.why')}</TableHead>
									<TableHead scope="col">{t('review.columns.client')}</TableHead>
								</TableRow>
							</TableHeader>
							<TableBody>
								{rows.map((r) => {
									const error = actionData?.transactionId === r.id ? t(`review.${actionData.error}`) : undefined
									const others = clients.filter((c) => !r.candidates.includes(c.id))
									return (
										<TableRow key={r.id} data-testid="review-row">
											<TableCell className="card-meta">{fmt.date(r.date)}</TableCell>
											<TableCell className="card-subtitle">
												<div className="font-medium" data-testid="review-payer">
													{r.payer}
												</div>
												<div className="text-xs text-muted-foreground">{t(`transactions:methods.${r.method}`)}</div>
											</TableCell>
											<TableCell className="text-right card-title">{fmt.money(r.amount)}</TableCell>
											<TableCell className="card-meta">{t(`review.why.${r.category}`)}</TableCell>
											<TableCell className="card-wide">
												<AppForm method="post" className="grid gap-2">
													<input type="hidden" name="transactionId" value={r.id} />
													{/* The choice is as wide as the cell, never as its longest client name (a phone, a narrow column). */}
													<div className="flex min-w-0 flex-wrap items-center gap-2">
														<NativeSelect
															className="w-full max-w-72 min-w-0 sm:w-auto"
															name="clientId"
															defaultValue={r.candidates[0] ?? ''}
															aria-label={t('review.clientFor', { payer: r.payer })}
															aria-invalid={error ? true : undefined}
															aria-describedby={error ? `review-error-${r.id}` : undefined}
														>
															<option value="">{t('review.chooseClient')}</option>
															{/* No client has the payer's name: one click makes it (several would be yet another namesake). */}
															{r.candidates.length === 0 ? (
																<option value={NEW_CLIENT}>{t('review.newClient', { payer: r.payer })}</option>
															) : null}
															{r.candidates.length > 0 ? (
																<optgroup label={t('review.likely')}>
																	{r.candidates.map((id) => (
																		<option key={id} value={id}>
																			{nameOf.get(id)}
																		</option>
																	))}
																</optgroup>
															) : null}
															{others.length > 0 ? (
																<optgroup label={t('review.allClients')}>
																	{others.map((c) => (
																		<option key={c.id} value={c.id}>
																			{nameOf.get(c.id)}
																		</option>
																	))}
																</optgroup>
															) : null}
														</NativeSelect>
														<Button type="submit" size="sm">
															{t('review.save')}
														</Button>
													</div>
													<label className="flex items-start gap-2 text-sm whitespace-normal">
														<input type="checkbox" name="saveAlias" defaultChecked className="mt-0.5" />
														{t('review.saveAlias', { payer: r.payer })}
													</label>
													{error ? (
														<p id={`review-error-${r.id}`} className="text-sm text-destructive">
															{error}
														</p>
													) : null}
												</AppForm>
											</TableCell>
										</TableRow>
									)
								})}
							</TableBody>
						</Table>
					)}
				</CardContent>
			</Card>
		</div>
	)
}
