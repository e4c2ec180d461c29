import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { commitImport, discardImport } from '#app/.server/payments/imports/pipeline.ts'
import { isProgressToken, reportProgress } from '#app/.server/payments/imports/progress.ts'
import { getStagedPreview, PREVIEW_ROWS } from '#app/.server/payments/imports/queries.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ImportHeader, ImportProgress, useProgressToken } from '#app/components/payments/imports.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { TablePagination } from '#app/components/data-table/data-table.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { importExpenseCounts } from '#app/.server/expenses/imports.ts'
import { ImportExpensesNote } from '#app/components/expenses/import-note.tsx'
import type { Route } from './+types/preview'
import { isUuid } from '#app/lib/uuid.ts'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('importPreview')

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	invariantResponse(isUuid(params.batchId), 404)
	// ?page=N of the rows (a page past the last shows the last); anything else is the first.
	const page = Number(new URL(request.url).searchParams.get('page'))
	const preview = await getStagedPreview(user.userId, organization.id, params.batchId, Number.isSafeInteger(page) && page > 0 ? page : 1)
	invariantResponse(preview, 404)
	// Its outgoing rows found as expenses (Expense Tracking), if any.
	const expenses = (await importExpenseCounts(user.userId, [params.batchId])).get(params.batchId) ?? null
	return { ...preview, previewRows: PREVIEW_ROWS, expenses }
}

/**
 * Commits the staged batch (chunk by chunk; also goes on with one that stopped half-way) and
 * shows the history with the outcome, or discards it.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	invariantResponse(isUuid(params.batchId), 404)
	const form = await request.formData()
	const intent = form.get('intent')
	// The two things this form does; any other post (a stray or forged intent) changes nothing.
	if (intent === 'discard') {
		const result = await discardImport(user.userId, params.batchId)
		if (result.ok) return redirectWithToast('/app/transactions/import', { type: 'success', title: 'imports:toast.discarded' })
		if (result.code === 'still_reading')
			return redirectWithToast(`/app/transactions/import/${params.batchId}`, { type: 'info', title: 'imports:toast.stillReading' })
		if (result.code === 'already_committed')
			return redirectWithToast('/app/transactions/import/history', { type: 'info', title: 'imports:toast.alreadyCommitted' })
		return redirectWithToast('/app/transactions/import', { type: 'error', title: 'imports:toast.notFound' })
	}
	if (intent !== 'commit') errorResponse(400, 'badRequest')
	const token = form.get('progress')
	const progressToken = isProgressToken(token) ? token : null
	reportProgress(progressToken, organization.id, 'committing', 0)
	const result = await commitImport(user.userId, params.batchId, (share) =>
		reportProgress(progressToken, organization.id, 'committing', share),
	)
	reportProgress(progressToken, organization.id, 'done', 1)
	const history = '/app/transactions/import/history'
	if (!result.ok) {
		if (result.code === 'already_committed') return redirectWithToast(history, { type: 'info', title: 'imports:toast.alreadyCommitted' })
		if (result.code === 'still_reading')
			return redirectWithToast(`/app/transactions/import/${params.batchId}`, { type: 'info', title: 'imports:toast.stillReading' })
		return redirectWithToast('/app/transactions/import', { type: 'error', title: 'imports:toast.notFound' })
	}
	const { counts } = result.batch
	return redirectWithToast(history, {
		type: 'success',
		title: 'imports:toast.committed.title',
		description: 'imports:toast.committed.description',
		values: { created: counts.created, skipped: counts.duplicates + counts.deleted },
	})
}

/** The failures' columns, in order: the phone cards' labels. */
const FAILURE_COLUMNS = ['line', 'reason', 'value'] as const

/** The rows' columns, in order: the phone cards' labels. */
const ROW_COLUMNS = ['date', 'payer', 'amount', 'externalId', 'outcome'] as const

export default function ImportPreview({ loaderData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation('imports')
	const token = useProgressToken()
	const { batch, counts, rows } = loaderData
	const n = (value: number) => fmt.number(value)
	if (batch.reading) {
		// Another request (or another server) is still reading the file: the page shows it once it is done.
		return (
			<div className="grid grid-cols-1 gap-6">
				<ImportHeader title={t('preview.title')} current="preview" />
				<p role="status">{t('preview.reading', { file: batch.fileName ?? '' })}</p>
				<p>
					<Link to={`/app/transactions/import/${batch.id}`} className="text-sm text-primary underline-offset-4 hover:underline">
						{t('preview.reload')}
					</Link>
				</p>
			</div>
		)
	}
	if (!counts) {
		return (
			<div className="grid grid-cols-1 gap-6">
				<ImportHeader title={t('preview.title')} current="preview" />
				<p>{t('preview.done')}</p>
			</div>
		)
	}
	const summary = [
		['create', counts.new_count],
		['duplicates', counts.duplicate_count],
		['deleted', counts.deleted_count],
		['ignored', batch.ignored],
		['failed', batch.failed],
	] as const
	return (
		<div className="grid grid-cols-1 gap-6">
			<ImportHeader
				title={t('preview.title')}
				description={t('preview.detected', { file: batch.fileName ?? '', source: t(`sources.${batch.source}`), rows: n(batch.rowsRead) })}
				current="preview"
			/>
			<Card>
				<CardContent className="grid gap-4">
					<dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="import-summary">
						{summary.map(([key, value]) => (
							<div key={key} className="grid gap-1 rounded-md border p-3">
								<dt className="text-xs text-muted-foreground">{t(`preview.counts.${key}`)}</dt>
								<dd className="text-xl font-semibold" data-testid={`count-${key}`}>
									{n(value)}
								</dd>
							</div>
						))}
					</dl>
					<ImportExpensesNote counts={loaderData.expenses} when="preview" />
					{batch.source === 'venmo' && rows.some((r) => !r.externalId) ? (
						// A Venmo file re-saved by a spreadsheet: its rounded ids were not used (parsers/venmo.ts).
						<p role="note" className="text-sm">
							{t('preview.idsLost')}
						</p>
					) : null}
					{counts.new_count > 0 ? (
						<p className="text-sm">
							{t('preview.match', {
								matched: n(counts.matched_count),
								review: n(counts.review_count),
								unmatched: n(counts.unmatched_count),
							})}
						</p>
					) : null}
					{batch.status === 'committing' ? (
						<p role="status" className="text-sm font-medium">
							{t('preview.committingSoFar', { committed: n(batch.committed), total: n(batch.payments) })}
						</p>
					) : null}
					<AppForm method="post" className="flex flex-wrap items-center gap-3">
						<input type="hidden" name="intent" value="commit" />
						<input type="hidden" name="progress" value={token} />
						{batch.status === 'committing' ? (
							<SubmitButton intent="commit" label={t('preview.continue')} pendingLabel={t('preview.committing')} />
						) : counts.new_count > 0 ? (
							<SubmitButton
								intent="commit"
								label={t('preview.commit', { count: counts.new_count, formatted: n(counts.new_count) })}
								pendingLabel={t('preview.committing')}
							/>
						) : (
							<p className="text-sm font-medium">{t('preview.nothing')}</p>
						)}
						<Link to="/app/transactions/import" className="text-sm text-primary underline-offset-4 hover:underline">
							{t('preview.another')}
						</Link>
						<ImportProgress token={token} intent="commit" />
					</AppForm>
					{batch.status === 'staged' ? (
						// A preview holds the organization's one import: discarding it frees the way for another file.
						<AppForm method="post">
							<input type="hidden" name="intent" value="discard" />
							<Button type="submit" variant="outline" size="sm">
								{t('preview.discard')}
							</Button>
						</AppForm>
					) : null}
				</CardContent>
			</Card>
			{batch.failures.length > 0 ? (
				<Card>
					<CardHeader>
						<CardTitle>
							<h2>{t('preview.failuresTitle')}</h2>
						</CardTitle>
						{batch.failed > batch.failures.length ? (
							<p className="text-sm text-muted-foreground">
								{t('preview.failuresMore', { shown: n(batch.failures.length), count: batch.failed })}
							</p>
						) : null}
					</CardHeader>
					<CardContent>
						<Table data-testid="import-failures" cards={FAILURE_COLUMNS.map((c) => t(`preview.columns.${c}`))}>
							<TableHeader>
								<TableRow>
									<TableHead scope="col">{t('preview.columns.line')}</TableHead>
									<TableHead scope="col">{t('preview.columns.reason')}</TableHead>
									<TableHead scope="col">{t('preview.columns.value')}</TableHead>
								</TableRow>
							</TableHeader>
							<TableBody>
								{batch.failures.map((f) => (
									<TableRow key={f.line}>
										<TableCell className="card-meta">{f.line}</TableCell>
										<TableCell className="whitespace-normal card-title">{t(`reasons.${f.reason}`)}</TableCell>
										<TableCell className={`font-mono text-xs break-all whitespace-normal ${f.value ? 'card-wide' : 'card-hidden'}`}>
											{f.value}
										</TableCell>
									</TableRow>
								))}
							</TableBody>
						</Table>
					</CardContent>
				</Card>
			) : null}
			{rows.length > 0 ? (
				<Card>
					<CardHeader>
						<CardTitle>
							<h2>{t('preview.rowsTitle')}</h2>
						</CardTitle>
					</CardHeader>
					<CardContent>
						<Table data-testid="import-rows" cards={ROW_COLUMNS.map((c) => t(`preview.columns.${c}`))}>
							<TableHeader>
								<TableRow>
									<TableHead scope="col">{t('preview.columns.date')}</TableHead>
									<TableHead scope="col">{t('preview.columns.payer')}</TableHead>
									<TableHead scope="col" className="text-right">
										{t('preview.columns.amount')}
									</TableHead>
									<TableHead scope="col">{t('preview.columns.externalId')}</TableHead>
									<TableHead scope="col">{t('preview.columns.outcome')}</TableHead>
								</TableRow>
							</TableHeader>
							<TableBody>
								{rows.map((r) => (
									<TableRow key={r.ord}>
										<TableCell className="card-meta">{fmt.date(r.date)}</TableCell>
										<TableCell className="card-subtitle">{r.payer}</TableCell>
										<TableCell className="text-right card-title">{fmt.money(r.amount)}</TableCell>
										<TableCell className={`font-mono text-xs ${r.externalId ? 'card-meta' : 'card-hidden'}`}>
											{r.externalId ?? ''}
										</TableCell>
										<TableCell className="card-wide">
											{t(`preview.states.${r.state}`)}
											{r.state === 'new'
												? ` · ${t(`preview.matches.${r.candidates === 1 ? 'matched' : r.candidates > 1 ? 'review' : 'unmatched'}`)}`
												: ''}
										</TableCell>
									</TableRow>
								))}
							</TableBody>
						</Table>
						{batch.pages > 1 ? (
							<div className="mt-4">
								<TablePagination
									page={batch.page}
									pageSize={loaderData.previewRows}
									total={batch.payments}
									totalCapped={false}
									rowCount={rows.length}
								/>
							</div>
						) : null}
					</CardContent>
				</Card>
			) : null}
		</div>
	)
}
