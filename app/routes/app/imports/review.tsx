import { useTranslation } from '#app/lib/use-translation.ts'

import { requireMember } from '#app/.server/auth/session.ts'
import { listReviewQueue, resolveReview } from '#app/.server/payments/imports/queries.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { ruleOfferFor, rulesActive } from '#app/.server/rules/rules.ts'
import { RuleOffer } from '#app/components/rules/rule-offer.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { listClientChoices } from '#app/.server/payments/clients.ts'
import { ClientOptions } from '#app/components/data-table/transaction-cells.tsx'
import { Input } from '#app/components/ui/input.tsx'
import type { ClientChoice } from '#app/lib/schemas/clients.ts'
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

/** The id of the page's one list of clients (the tables kit's combobox: a text box with a native datalist). */
const CLIENTS_LIST = 'review-clients'

/**
 * The client a typed text names: the tables kit's combobox sends a client's name, or "Name <email>"
 * for namesakes (listClientChoices); any case. `new` when it names no client but is the payer's own
 * name (saving creates that client), else why it names none.
 */
function clientNamed(text: string, payer: string, choices: ClientChoice[]) {
	const typed = text.trim().toLowerCase()
	if (!typed) return { error: 'clientRequired' as const }
	const byValue = choices.filter((c) => c.value.toLowerCase() === typed)
	const found = byValue.length > 0 ? byValue : choices.filter((c) => c.name.toLowerCase() === typed)
	if (found.length === 1) return { id: found[0]!.id }
	if (found.length > 1) return { error: 'clientAmbiguous' as const }
	if (typed === payer.trim().toLowerCase()) return { id: null }
	return { error: 'clientUnknown' as const }
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	// After a payer was assigned with "Remember", Workflow Automation offers the alias as a rule.
	const offered = new URL(request.url).searchParams.get('ruleFor')
	const [queue, offer] = await Promise.all([
		listReviewQueue(user.userId, organization.id),
		ruleOfferFor(user.userId, organization.id, offered),
	])
	return { ...queue, offer }
}

/** One payment's client, optionally remembered as the payer's alias. */
export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	const form = await request.formData()
	const transactionId = form.get('transactionId')
	const client = form.get('client')
	const payer = form.get('payer')
	const back = '/app/transactions/import/review'
	if (!isUuid(transactionId)) return redirectWithToast(back, { type: 'error', title: 'imports:toast.transactionNotFound' })
	const named = clientNamed(
		typeof client === 'string' ? client : '',
		typeof payer === 'string' ? payer : '',
		await listClientChoices(user.userId, organization.id),
	)
	if ('error' in named) return { transactionId, error: named.error }
	const saveAlias = form.get('saveAlias') === 'on'
	const result = await resolveReview(user.userId, organization.id, { transactionId, clientId: named.id, saveAlias })
	if (!result.ok) {
		if (result.error === 'clientExists') return { transactionId, error: 'clientExists' as const }
		return redirectWithToast(back, {
			type: 'error',
			title: result.error === 'notFound' ? 'imports:toast.transactionNotFound' : 'imports:toast.clientNotFound',
		})
	}
	if (saveAlias) {
		const offer = (await rulesActive(user.userId, organization.id)) ? `${back}?ruleFor=${transactionId}` : back
		return redirectWithToast(offer, { type: 'success', title: 'imports:toast.resolvedAlias', values: { count: result.updated } })
	}
	return redirectWithToast(back, { type: 'success', title: 'imports:toast.resolved' })
}

/** The queue's columns, in order: the phone cards' labels. */
const REVIEW_COLUMNS = ['date', 'payer', 'amount', 'why', 'client'] as const

export default function ReviewQueue({ loaderData, actionData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation(['imports', 'transactions'])
	const { rows, clients } = loaderData
	// The tables kit's values: the name, or "Name <email>" for a name several clients share.
	const count = new Map<string, number>()
	for (const c of clients) count.set(c.name.toLowerCase(), (count.get(c.name.toLowerCase()) ?? 0) + 1)
	const choices: ClientChoice[] = clients.map((c) => ({
		...c,
		value: (count.get(c.name.toLowerCase()) ?? 0) > 1 && c.email ? `${c.name} <${c.email}>` : c.name,
	}))
	const valueOf = new Map(choices.map((c) => [c.id, c.value]))
	return (
		<div className="grid grid-cols-1 gap-6">
			<ImportHeader title={t('review.title')} description={t('review.description')} current="review" />
			{loaderData.offer ? <RuleOffer offer={loaderData.offer} /> : null}
			<Card>
				<CardContent>
					{rows.length === 0 ? (
						<p className="text-sm text-muted-foreground">{t('review.empty')}</p>
					) : (
						<>
							<ClientOptions id={CLIENTS_LIST} choices={choices} />
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
														<input type="hidden" name="payer" value={r.payer} />
														{/* The tables kit's combobox: type to search the clients, or pick one (works without JavaScript). */}
														<Input
															name="client"
															list={CLIENTS_LIST}
															autoComplete="off"
															className="w-full max-w-72 min-w-0"
															defaultValue={r.candidates[0] ? valueOf.get(r.candidates[0]) : r.payer}
															aria-label={t('review.clientFor', { payer: r.payer })}
															aria-invalid={error ? true : undefined}
															aria-describedby={`review-hint-${r.id}${error ? ` review-error-${r.id}` : ''}`}
														/>
														<p id={`review-hint-${r.id}`} className="text-xs whitespace-normal text-muted-foreground">
															{r.candidates.length > 1
																? t('review.hintSeveral', { count: r.candidates.length })
																: r.candidates.length === 0
																	? t('review.hintNew', { payer: r.payer })
																	: t('review.hint')}
														</p>
														{/* Read and tabbed before Save: what Save will also do. */}
														<label className="flex min-h-11 items-start gap-2 text-sm whitespace-normal sm:min-h-0">
															<input type="checkbox" name="saveAlias" defaultChecked className="mt-0.5 size-4" />
															{t('review.saveAlias', { payer: r.payer })}
														</label>
														{error ? (
															<p id={`review-error-${r.id}`} className="text-sm text-destructive">
																{error}
															</p>
														) : null}
														<Button type="submit" size="sm" className="w-fit">
															{t('review.save')}
														</Button>
													</AppForm>
												</TableCell>
											</TableRow>
										)
									})}
								</TableBody>
							</Table>
						</>
					)}
				</CardContent>
			</Card>
		</div>
	)
}
