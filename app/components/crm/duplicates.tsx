import { AppForm } from '#app/components/forms/app-form.tsx'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'
import { Link } from '#app/components/link.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * CRM Enterprise's "Possible duplicates" screen (docs/product.md, Clients › Duplicates and merges):
 * the pairs, each with a choice of the client to keep (a step of the address, then a question
 * answered by a form) and "Not duplicates"; the recent merges with Undo. Plain links and form
 * posts, so it works without JavaScript.
 */

type PairClient = { id: string; name: string; email: string | null; phone: string | null; payments: number }
export type Pair = { a: PairClient; b: PairClient; reasons: Array<'email' | 'phone' | 'name'> }
export type MergeItem = {
	id: string
	keptId: string
	keptName: string | null
	mergedName: string
	mergedDate: string
	undoUntilDate: string
	undone: boolean
}
export type ConfirmStep = { keep: { id: string; name: string }; merge: { id: string; name: string } }

function useLabel() {
	const { t } = useTranslation('clients')
	return (c: { name: string; email?: string | null; phone?: string | null }) =>
		[c.name || t('unnamed'), c.email, c.phone].filter(Boolean).join(' · ')
}

/** "Merge … into …?" once a client to keep is chosen (`?keep=…&merge=…`). */
export function ConfirmMerge({ step }: { step: ConfirmStep }) {
	const { t } = useTranslation('clients')
	const names = { keep: step.keep.name || t('unnamed'), merge: step.merge.name || t('unnamed') }
	return (
		<ConfirmCard
			id="duplicates-confirm"
			title={t('duplicates.confirmTitle', names)}
			description={t('duplicates.confirmDescription', names)}
			keep={{ to: '/app/clients/duplicates', label: t('duplicates.cancel') }}
		>
			<AppForm method="post">
				<input type="hidden" name="intent" value="merge" />
				<input type="hidden" name="keep" value={step.keep.id} />
				<input type="hidden" name="merge" value={step.merge.id} />
				<Button type="submit" variant="destructive">
					{t('duplicates.confirm')}
				</Button>
			</AppForm>
		</ConfirmCard>
	)
}

export function DuplicatePairs({ pairs }: { pairs: Pair[] }) {
	const { t } = useTranslation('clients')
	const fmt = useFormat()
	const label = useLabel()
	return (
		<section aria-labelledby="duplicates-pairs" className="grid gap-3">
			<h2 id="duplicates-pairs" className="text-lg font-semibold">
				{t('duplicates.pairsTitle')}
			</h2>
			{pairs.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('duplicates.none')}</p>
			) : (
				<ul className="grid gap-3" aria-label={t('duplicates.pairsTitle')}>
					{pairs.map((p) => (
						<li
							key={`${p.a.id}-${p.b.id}`}
							aria-label={t('duplicates.pairLabel', { a: label(p.a), b: label(p.b) })}
							className="grid gap-3 rounded-md border p-3 text-sm"
						>
							<div className="flex flex-wrap gap-1">
								{p.reasons.map((r) => (
									<Badge key={r} variant="secondary">
										{t(`duplicates.reasons.${r}`)}
									</Badge>
								))}
							</div>
							<div className="grid gap-3 sm:grid-cols-2">
								{[
									[p.a, p.b],
									[p.b, p.a],
								].map(([c, other]) => (
									<div key={c!.id} className="grid gap-2">
										<Link
											to={`/app/clients/${c!.id}`}
											className="font-medium wrap-anywhere text-primary underline-offset-4 hover:underline"
										>
											{c!.name || t('unnamed')}
										</Link>
										<span className="text-muted-foreground wrap-anywhere">
											{[c!.email, c!.phone, t('duplicates.payments', { count: c!.payments, n: fmt.number(c!.payments) })]
												.filter(Boolean)
												.join(' · ')}
										</span>
										<Button asChild variant="outline" size="sm" className="w-fit">
											<Link
												to={`/app/clients/duplicates?keep=${c!.id}&merge=${other!.id}`}
												aria-label={t('duplicates.keepLabel', { keep: label(c!), merge: label(other!) })}
											>
												{t('duplicates.keep')}
											</Link>
										</Button>
									</div>
								))}
							</div>
							<AppForm method="post">
								<input type="hidden" name="intent" value="dismiss" />
								<input type="hidden" name="a" value={p.a.id} />
								<input type="hidden" name="b" value={p.b.id} />
								<Button type="submit" variant="ghost" size="sm" aria-label={t('duplicates.dismissLabel', { a: label(p.a), b: label(p.b) })}>
									{t('duplicates.dismiss')}
								</Button>
							</AppForm>
						</li>
					))}
				</ul>
			)}
		</section>
	)
}

export function RecentMerges({ merges }: { merges: MergeItem[] }) {
	const { t } = useTranslation('clients')
	const fmt = useFormat()
	return (
		<section aria-labelledby="duplicates-merges" className="grid gap-3">
			<h2 id="duplicates-merges" className="text-lg font-semibold">
				{t('duplicates.merges.title')}
			</h2>
			{merges.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('duplicates.merges.none')}</p>
			) : (
				<ul className="grid gap-2" aria-label={t('duplicates.merges.title')}>
					{merges.map((m) => {
						const names = { merged: m.mergedName || t('unnamed'), kept: m.keptName ?? t('duplicates.merges.goneClient') }
						return (
							<li key={m.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
								<div className="grid min-w-0 gap-0.5">
									<span className="wrap-anywhere">
										{m.keptName === null ? (
											t('duplicates.merges.item', names)
										) : (
											<>
												{t('duplicates.merges.itemBefore', names)}
												<Link to={`/app/clients/${m.keptId}`} className="text-primary underline-offset-4 hover:underline">
													{names.kept}
												</Link>
											</>
										)}
									</span>
									<span className="text-muted-foreground">
										{m.undone
											? t('duplicates.merges.undone', { date: fmt.date(m.mergedDate) })
											: m.keptName === null
												? t('duplicates.merges.keptGone')
												: t('duplicates.merges.until', { date: fmt.date(m.undoUntilDate), merged: fmt.date(m.mergedDate) })}
									</span>
								</div>
								{m.undone || m.keptName === null ? null : (
									<AppForm method="post">
										<input type="hidden" name="intent" value="undo" />
										<input type="hidden" name="mergeId" value={m.id} />
										<Button type="submit" variant="outline" size="sm" aria-label={t('duplicates.merges.undoLabel', names)}>
											{t('duplicates.merges.undo')}
										</Button>
									</AppForm>
								)}
							</li>
						)
					})}
				</ul>
			)}
		</section>
	)
}
