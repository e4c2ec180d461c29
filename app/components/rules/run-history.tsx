import { useNavigation } from 'react-router'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

export type RuleRunView = {
	id: string
	ranAt: string
	ruleName: string
	transactionId: string | null
	amount: string | null
	payer: string | null
	dateReceived: string | null
	actions: { category?: string; client_id?: string; tag?: string; hold?: boolean; notify?: boolean }
	clientName: string | null
	held: boolean
}

/** The run history, newest first: which rule acted on which payment and what it did; a held payment's hold is cleared here. */
export function RunHistory({ runs }: { runs: RuleRunView[] }) {
	const { t } = useTranslation('rules')
	const fmt = useFormat()
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	return (
		<section id="history" aria-labelledby="history-heading" className="grid min-w-0 gap-3">
			<h2 id="history-heading" className="text-lg font-semibold">
				{t('history.heading')}
			</h2>
			{runs.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('history.empty')}</p>
			) : (
				<Table>
					<TableCaption className="sr-only">{t('history.caption')}</TableCaption>
					<TableHeader>
						<TableRow>
							<TableHead>{t('history.ran')}</TableHead>
							<TableHead>{t('history.rule')}</TableHead>
							<TableHead>{t('history.payment')}</TableHead>
							<TableHead>{t('history.did')}</TableHead>
							<TableHead>{t('history.review')}</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{runs.map((run) => (
							<TableRow key={run.id}>
								<TableCell className="whitespace-nowrap">{fmt.date(run.ranAt)}</TableCell>
								<TableCell>{run.ruleName}</TableCell>
								<TableCell>
									{run.transactionId
										? [fmt.date(run.dateReceived), run.payer ?? t('history.noPayer'), fmt.money(run.amount)].join(' · ')
										: t('history.deletedPayment')}
								</TableCell>
								<TableCell>
									{[
										run.actions.category ? t('actions.category', { value: t(`categories.${run.actions.category}`) }) : null,
										run.actions.client_id
											? run.clientName
												? t('actions.client', { value: run.clientName })
												: t('actions.clientGone')
											: null,
										run.actions.tag ? t('actions.tag', { value: run.actions.tag }) : null,
										run.actions.hold ? t('actions.hold') : null,
										run.actions.notify ? t('actions.notified') : null,
									]
										.filter(Boolean)
										.join('; ')}
								</TableCell>
								<TableCell>
									{run.held && run.transactionId ? (
										<div className="flex flex-wrap items-center gap-2">
											<Badge variant="secondary">{t('history.held')}</Badge>
											<AppForm method="post">
												<input type="hidden" name="transactionId" value={run.transactionId} />
												<Button type="submit" name="intent" value="clearHold" variant="outline" size="sm" disabled={busy}>
													{t('history.clear')}
												</Button>
											</AppForm>
										</div>
									) : null}
								</TableCell>
							</TableRow>
						))}
					</TableBody>
				</Table>
			)}
		</section>
	)
}
