import type { BankFeedView, BankLine, Discrepancy, Statement, UploadError } from '#app/.server/bank-feed/statements.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { MAX_OFX_BYTES, MAX_OFX_TRANSACTIONS, PENDING_DAYS } from '#app/lib/bank-feed.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The bank reconciliation screen's parts (docs/product.md, Bank feed): the upload form, the
 * totals that are not income, the discrepancies, the statement lines with the app payments each
 * cash-out carried, and the uploaded statements with their Remove. Every form is a plain post.
 */

export function StatementUpload({ error }: { error: UploadError | null }) {
	const { t } = useTranslation('imports')
	const fmt = useFormat()
	const lines = fmt.number(MAX_OFX_TRANSACTIONS)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('bankFeed.upload.title')}</h2>
				</CardTitle>
			</CardHeader>
			<CardContent>
				<AppForm method="post" encType="multipart/form-data" className="grid max-w-xl gap-4">
					<input type="hidden" name="intent" value="upload" />
					<Field
						label={t('bankFeed.upload.label')}
						htmlFor="statement-file"
						error={error ? t(`bankFeed.errors.${error}`, { lines }) : undefined}
						errorId="statement-file-error"
					>
						<Input
							id="statement-file"
							name="file"
							type="file"
							accept=".ofx,.qfx,application/x-ofx,application/vnd.intu.qfx,text/plain"
							required
							aria-invalid={error ? true : undefined}
							aria-describedby={error ? 'statement-file-error statement-file-help' : 'statement-file-help'}
							onChange={(event) => {
								const file = event.currentTarget.files?.[0]
								event.currentTarget.setCustomValidity(file && file.size > MAX_OFX_BYTES ? t('bankFeed.errors.tooLarge') : '')
							}}
						/>
					</Field>
					<p id="statement-file-help" className="text-sm text-muted-foreground">
						{t('bankFeed.upload.help', { lines })}
					</p>
					<div>
						<SubmitButton label={t('bankFeed.upload.submit')} pendingLabel={t('bankFeed.upload.submit')} intent="upload" />
					</div>
				</AppForm>
			</CardContent>
		</Card>
	)
}

export function NotIncomeTotals({ totals }: { totals: BankFeedView['totals'] }) {
	const { t } = useTranslation('imports')
	const fmt = useFormat()
	const items = [
		{ key: 'cashouts', value: totals.cashouts, note: t('bankFeed.summary.notIncome') },
		{ key: 'ownTransfers', value: totals.ownTransfers, note: t('bankFeed.summary.notIncome') },
		{ key: 'deposits', value: totals.deposits, note: t('bankFeed.summary.otherHelp') },
	] as const
	return (
		<dl className="grid gap-4 sm:grid-cols-3" data-testid="bank-feed-totals">
			{items.map((item) => (
				<Card key={item.key}>
					<CardContent className="grid gap-1">
						<dt className="text-sm text-muted-foreground">{t(`bankFeed.summary.${item.key}`)}</dt>
						<dd className="text-2xl font-semibold" data-testid={`total-${item.key}`}>
							{fmt.money(item.value)}
						</dd>
						<dd className="text-xs text-muted-foreground">{item.note}</dd>
					</CardContent>
				</Card>
			))}
		</dl>
	)
}

export function DiscrepancyList({ discrepancies }: { discrepancies: Discrepancy[] }) {
	const { t } = useTranslation('imports')
	const methods = useTranslation('transactions').t
	const fmt = useFormat()
	return (
		<Card data-testid="bank-feed-discrepancies">
			<CardHeader>
				<CardTitle>
					<h2>{t('bankFeed.discrepancies.title')}</h2>
				</CardTitle>
			</CardHeader>
			<CardContent>
				{discrepancies.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('bankFeed.discrepancies.none')}</p>
				) : (
					<ul className="grid list-disc gap-2 pl-5 text-sm">
						{discrepancies.map((d) => (
							<li key={`${d.kind}:${d.id}`}>
								{t(`bankFeed.discrepancies.${d.kind}`, {
									rail: d.rail ? methods(`methods.${d.rail}`) : '',
									amount: fmt.money(d.amount),
									expected: fmt.money(d.expected ?? '0'),
									date: fmt.date(d.day),
									label: d.label || '—',
									days: PENDING_DAYS,
								})}
							</li>
						))}
					</ul>
				)}
			</CardContent>
		</Card>
	)
}

const LINE_COLUMNS = ['date', 'name', 'account', 'amount', 'kind', 'reconciliation'] as const

export function StatementLines({ lines }: { lines: BankLine[] }) {
	const { t } = useTranslation('imports')
	const methods = useTranslation('transactions').t
	const fmt = useFormat()
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('bankFeed.lines.title')}</h2>
				</CardTitle>
			</CardHeader>
			<CardContent>
				{lines.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('bankFeed.lines.empty')}</p>
				) : (
					<Table
						data-testid="bank-feed-lines"
						cards={LINE_COLUMNS.map((c) => t(`bankFeed.lines.${c}`))}
						className="[&_td]:whitespace-normal [&_th]:whitespace-normal"
					>
						<TableHeader>
							<TableRow>
								{LINE_COLUMNS.map((c) => (
									<TableHead key={c} scope="col" className={c === 'amount' ? 'text-right' : undefined}>
										{t(`bankFeed.lines.${c}`)}
									</TableHead>
								))}
							</TableRow>
						</TableHeader>
						<TableBody>
							{lines.map((line) => (
								<TableRow key={line.id} data-kind={line.kind} data-status={line.status ?? undefined}>
									<TableCell className="card-title">{fmt.date(line.postedOn)}</TableCell>
									<TableCell>{line.name || '—'}</TableCell>
									<TableCell>{line.account}</TableCell>
									<TableCell className="text-right tabular-nums">{fmt.money(line.amount)}</TableCell>
									<TableCell>
										{t(`bankFeed.lines.kinds.${line.kind}`, { rail: line.rail ? methods(`methods.${line.rail}`) : '' })}
									</TableCell>
									<TableCell>
										{line.status ? (
											<div className="grid gap-1">
												<span className="font-medium">{t(`bankFeed.lines.status.${line.status}`)}</span>
												{line.payments.length > 0 ? (
													<ul className="grid gap-0.5 text-xs text-muted-foreground">
														{line.payments.map((p) => (
															<li key={p.id}>
																{t('bankFeed.lines.carried', {
																	payer: p.payer || '—',
																	amount: fmt.money(p.amount),
																	date: fmt.date(p.date),
																})}
															</li>
														))}
													</ul>
												) : null}
											</div>
										) : (
											'—'
										)}
									</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				)}
			</CardContent>
		</Card>
	)
}

const STATEMENT_COLUMNS = ['file', 'accounts', 'period', 'count', 'remove'] as const

export function StatementList({ statements }: { statements: Statement[] }) {
	const { t } = useTranslation('imports')
	const fmt = useFormat()
	if (statements.length === 0) return null
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('bankFeed.statements.title')}</h2>
				</CardTitle>
				<CardDescription>{t('bankFeed.statements.reconcileHelp')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				<Table data-testid="bank-statements" cards={STATEMENT_COLUMNS.map((c) => (c === 'remove' ? null : t(`bankFeed.statements.${c}`)))}>
					<TableHeader>
						<TableRow>
							<TableHead scope="col">{t('bankFeed.statements.file')}</TableHead>
							<TableHead scope="col">{t('bankFeed.statements.accounts')}</TableHead>
							<TableHead scope="col">{t('bankFeed.statements.period')}</TableHead>
							<TableHead scope="col" className="text-right">
								{t('bankFeed.statements.count')}
							</TableHead>
							<TableHead scope="col">
								<span className="sr-only">{t('bankFeed.statements.remove')}</span>
							</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{statements.map((s) => (
							<TableRow key={s.id}>
								<TableCell className="card-title">{s.fileName || '—'}</TableCell>
								<TableCell>{s.accounts}</TableCell>
								<TableCell>{s.periodStart && s.periodEnd ? `${fmt.date(s.periodStart)} – ${fmt.date(s.periodEnd)}` : '—'}</TableCell>
								<TableCell className="text-right tabular-nums">{fmt.number(s.lineCount)}</TableCell>
								<TableCell>
									<AppForm method="post">
										<input type="hidden" name="intent" value="remove" />
										<input type="hidden" name="statementId" value={s.id} />
										<Button
											type="submit"
											variant="outline"
											size="sm"
											aria-label={t('bankFeed.statements.removeLabel', { file: s.fileName || '—' })}
										>
											{t('bankFeed.statements.remove')}
										</Button>
									</AppForm>
								</TableCell>
							</TableRow>
						))}
					</TableBody>
				</Table>
				<AppForm method="post">
					<input type="hidden" name="intent" value="reconcile" />
					<SubmitButton label={t('bankFeed.statements.reconcile')} pendingLabel={t('bankFeed.statements.reconcile')} intent="reconcile" />
				</AppForm>
			</CardContent>
		</Card>
	)
}
