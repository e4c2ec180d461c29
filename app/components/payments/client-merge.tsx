/**
 * "Merge into…" on a client's page (docs/product.md, Clients from bookings): a search for the
 * client to keep (`?merge=1&q=…`, a plain GET form), then the question before merging
 * (`?merge=1&into={id}`), answered by a form. Steps of the address, so it works without JavaScript.
 */
import { Form } from 'react-router'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

type Candidate = { id: string; name: string; email: string | null; phone: string | null }

export type MergeStep = { q: string; candidates: Candidate[]; into: Candidate | null }

/** The link that starts a merge. */
export function MergeLink() {
	const { t } = useTranslation('clients')
	return (
		<Button asChild variant="outline" className="w-fit">
			<Link to="?merge=1">{t('merge.open')}</Link>
		</Button>
	)
}

/** The merge's step: the choice of the client to keep, or the question once one is chosen. */
export function ClientMerge({ name, step }: { name: string; step: MergeStep }) {
	const { t } = useTranslation('clients')
	const label = (c: Candidate) => [c.name || t('unnamed'), c.email, c.phone].filter(Boolean).join(' · ')
	if (step.into)
		return (
			<ConfirmCard
				id="merge-title"
				title={t('merge.confirmTitle', { name, into: step.into.name || t('unnamed') })}
				description={t('merge.confirmDescription', { name, into: step.into.name || t('unnamed') })}
				keep={{ to: '?', label: t('merge.keep') }}
			>
				<AppForm method="post">
					<input type="hidden" name="intent" value="merge" />
					<input type="hidden" name="into" value={step.into.id} />
					<Button type="submit" variant="destructive">
						{t('merge.confirm')}
					</Button>
				</AppForm>
			</ConfirmCard>
		)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('merge.title', { name })}</h2>
				</CardTitle>
				<CardDescription>{t('merge.description', { name })}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				<Form method="get" className="flex flex-wrap items-end gap-2">
					<input type="hidden" name="merge" value="1" />
					<div className="grid min-w-0 flex-1 gap-2">
						<Label htmlFor="merge-search">{t('merge.search')}</Label>
						<Input id="merge-search" type="search" name="q" defaultValue={step.q} className="h-11 sm:h-9" />
					</div>
					<Button type="submit" variant="outline">
						{t('merge.find')}
					</Button>
				</Form>
				{step.candidates.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('merge.none')}</p>
				) : (
					<ul className="grid gap-2" aria-label={t('merge.candidates')}>
						{step.candidates.map((c) => (
							<li key={c.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
								<span className="min-w-0 wrap-anywhere">{label(c)}</span>
								<Button asChild variant="outline" size="sm">
									<Link to={`?merge=1&into=${c.id}`} aria-label={t('merge.chooseLabel', { name: label(c) })}>
										{t('merge.choose')}
									</Link>
								</Button>
							</li>
						))}
					</ul>
				)}
				<Button asChild variant="ghost" className="w-fit">
					<Link to="?">{t('merge.keep')}</Link>
				</Button>
			</CardContent>
		</Card>
	)
}
