import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { undoImport } from '#app/.server/payments/imports/pipeline.ts'
import { editedSinceImport, listImportHistory } from '#app/.server/payments/imports/queries.ts'
import { memberClock } from '#app/.server/query.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ImportHeader } from '#app/components/payments/imports.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { dateTimeIn } from '#app/lib/dates.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/history'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'
import { importExpenseCounts } from '#app/.server/expenses/imports.ts'
import { ImportExpensesNote } from '#app/components/expenses/import-note.tsx'
import { isUuid } from '#app/lib/uuid.ts'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('importHistory')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	// When each import ran, in the organization's timezone (as every other moment the app shows).
	const { timezone } = memberClock(organization)
	const rows = (await listImportHistory(user.userId, organization.id)).map((r) => ({
		...r,
		ran: dateTimeIn(timezone, new Date(r.createdAt)),
	}))
	// Undo asks first, on a page of its own (`?undo={batch}`, works without JavaScript).
	const undoId = new URL(request.url).searchParams.get('undo')
	const found = rows.find((r) => r.id === undoId && (r.status === 'committed' || r.status === 'undoing') && r.created > 0) ?? null
	// The confirmation says how many payments stay (edited since, a client chosen in the review queue among them).
	const undoing = found ? { ...found, kept: await editedSinceImport(user.userId, found.id) } : null
	// What each import added to Expenses (Expense Tracking), by batch.
	const batchIds = rows.map((r) => r.id)
	const expenses = Object.fromEntries(await importExpenseCounts(user.userId, batchIds))
	return { rows, undoing, expenses }
}

/** Undo of one batch: removes what it created that nobody has edited since. */
export async function action({ request, context }: Route.ActionArgs) {
	const { user } = requireMember(context)
	const form = await request.formData()
	const batchId = form.get('batchId')
	if (form.get('intent') !== 'undo' || !isUuid(batchId)) errorResponse(400, 'badRequest')
	const result = await undoImport(user.userId, batchId)
	const back = '/app/transactions/import/history'
	if (result.ok) {
		// What stayed: the batch's payments someone edited since (the undo removes the others).
		const kept = await editedSinceImport(user.userId, batchId)
		return redirectWithToast(back, {
			type: 'success',
			title: 'imports:toast.undone.title',
			description: kept > 0 ? 'imports:toast.undone.keptDescription' : 'imports:toast.undone.description',
			values: { count: result.removed, kept },
		})
	}
	if (result.code === 'already_undone') return redirectWithToast(back, { type: 'info', title: 'imports:toast.alreadyUndone' })
	return redirectWithToast(back, { type: 'error', title: 'imports:toast.notFound' })
}

/** The history's columns, in order: the phone cards' labels. */
const HISTORY_COLUMNS = ['when', 'source', 'who', 'read', 'created', 'duplicates', 'ignored', 'failed', 'status'] as const

export default function ImportHistory({ loaderData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation('imports')
	const n = (value: number) => fmt.number(value)
	const when = (ran: { date: string; time: string }) => fmt.dateTime(ran)
	return (
		<div className="grid grid-cols-1 gap-6">
			<ImportHeader title={t('history.title')} description={t('history.description')} current="history" />
			{loaderData.undoing ? <ConfirmUndo batch={loaderData.undoing} when={when(loaderData.undoing.ran)} /> : null}
			<Card>
				<CardContent>
					{loaderData.rows.length === 0 ? (
						<p className="text-sm text-muted-foreground">{t('history.empty')}</p>
					) : (
						// Headers and cells wrap, so that the nine columns and Undo fit a laptop's width; cards on a phone.
						<Table
							data-testid="import-history"
							cards={HISTORY_COLUMNS.map((c) => t(`history.columns.${c}`))}
							className="[&_td]:whitespace-normal [&_th]:whitespace-normal"
						>
							<TableHeader>
								<TableRow>
									<TableHead scope="col">{t('history.columns.when')}</TableHead>
									<TableHead scope="col">{t('history.columns.source')}</TableHead>
									<TableHead scope="col">{t('history.columns.who')}</TableHead>
									<TableHead scope="col" className="text-right">
										{t('history.columns.read')}
									</TableHead>
									<TableHead scope="col" className="text-right">
										{t('history.columns.created')}
									</TableHead>
									<TableHead scope="col" className="text-right">
										{t('history.columns.duplicates')}
									</TableHead>
									<TableHead scope="col" className="text-right">
										{t('history.columns.ignored')}
									</TableHead>
									<TableHead scope="col" className="text-right">
										{t('history.columns.failed')}
									</TableHead>
									<TableHead scope="col">{t('history.columns.status')}</TableHead>
								</TableRow>
							</TableHeader>
							<TableBody>
								{loaderData.rows.map((r) => (
									<TableRow key={r.id}>
										<TableCell className="card-title">{when(r.ran)}</TableCell>
										<TableCell className="card-subtitle">
											<div>{t(`sources.${r.source}`)}</div>
											{r.fileName ? <div className="text-xs text-muted-foreground">{r.fileName}</div> : null}
										</TableCell>
										<TableCell className={r.who ? 'card-meta' : 'card-hidden'}>{r.who ?? ''}</TableCell>
										<TableCell className="text-right">{n(r.rowsRead)}</TableCell>
										<TableCell className="text-right" data-testid="history-created">
											{n(r.created)}
										</TableCell>
										<TableCell className="text-right" data-testid="history-duplicates">
											{n(r.duplicates)}
										</TableCell>
										<TableCell className="text-right">{n(r.ignored)}</TableCell>
										<TableCell className="text-right">{n(r.failed)}</TableCell>
										<TableCell className="card-wide">
											<ImportExpensesNote counts={loaderData.expenses[r.id]} when="history" />
											{r.status === 'undone' ? (
												t('history.status.undone', { count: r.undone })
											) : r.status === 'committing' ? (
												// A commit under way, or one that stopped half-way: its preview page goes on with it.
												<div className="flex flex-wrap items-center gap-2">
													<span>{t('history.status.committing')}</span>
													<Button asChild variant="outline" size="sm">
														<Link to={`/app/transactions/import/${r.id}`}>{t('history.continue')}</Link>
													</Button>
												</div>
											) : (
												<div className="flex flex-wrap items-center gap-2">
													<span>{t(r.status === 'undoing' ? 'history.status.undoing' : 'history.status.committed')}</span>
													{r.created > 0 ? (
														<Button asChild variant="outline" size="sm">
															<Link to={`?undo=${r.id}`} aria-label={t('history.undoLabel', { when: when(r.ran) })}>
																{t('history.undo')}
															</Link>
														</Button>
													) : null}
												</div>
											)}
										</TableCell>
									</TableRow>
								))}
							</TableBody>
						</Table>
					)}
				</CardContent>
			</Card>
		</div>
	)
}

function ConfirmUndo({ batch, when }: { batch: { id: string; created: number; kept: number }; when: string }) {
	const { t } = useTranslation('imports')
	return (
		<ConfirmCard
			id="confirm-undo-title"
			title={t('history.confirmUndo.title')}
			description={
				batch.kept > 0
					? t('history.confirmUndo.keptDescription', { count: batch.created, kept: batch.kept, when })
					: t('history.confirmUndo.description', { count: batch.created, when })
			}
			keep={{ to: '/app/transactions/import/history', label: t('history.confirmUndo.keep') }}
		>
			<AppForm method="post">
				<input type="hidden" name="intent" value="undo" />
				<input type="hidden" name="batchId" value={batch.id} />
				<SubmitButton
					intent="undo"
					label={t('history.confirmUndo.confirm')}
					pendingLabel={t('history.undoing')}
					className="bg-destructive text-white hover:bg-destructive/90"
				/>
			</AppForm>
		</ConfirmCard>
	)
}
