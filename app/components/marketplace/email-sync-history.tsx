import { AlertCircleIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Alert, AlertDescription } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import type { EmailSyncView } from '#app/.server/payments/email-sync/history.ts'
import { SYNC_FAILURES } from '#app/lib/integrations.ts'
import { useFormat } from '#app/lib/use-format.ts'

const COUNTS = ['read', 'created', 'duplicates', 'ignored', 'unreadable', 'errors'] as const

/**
 * The email sync on the module page (docs/product.md, Email sync): the state, Sync now, each
 * run's counts, and the notices of known senders the parsers could not read.
 */
export function EmailSyncHistory({ sync, connected }: { sync: EmailSyncView; connected: boolean }) {
	const { t } = useTranslation('marketplace')
	const fmt = useFormat()
	const failure = (code: string | null) =>
		code && (SYNC_FAILURES as readonly string[]).includes(code)
			? t(`emailSync.failures.${code}`)
			: code
				? t('emailSync.failures.internal')
				: ''
	return (
		<Card id="email-sync" role="region" aria-labelledby="email-sync-title">
			<CardHeader>
				<CardTitle>
					<h2 id="email-sync-title">{t('emailSync.title')}</h2>
				</CardTitle>
				<CardDescription>{t('emailSync.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				<div className="flex flex-wrap items-center gap-3">
					{/* With no mailbox connected (disconnected since), the last run's state and Sync now are moot. */}
					{connected ? (
						<>
							<span className="text-sm">
								{t('emailSync.statusLabel')}{' '}
								<Badge variant={sync.status === 'error' ? 'destructive' : 'secondary'} data-testid="email-sync-status">
									{t(`emailSync.status.${sync.status}`)}
								</Badge>
							</span>
							<AppForm method="post">
								<input type="hidden" name="intent" value="syncNow" />
								<SubmitButton intent="syncNow" label={t('emailSync.syncNow')} pendingLabel={t('emailSync.syncing')} />
							</AppForm>
						</>
					) : (
						<span className="text-sm text-muted-foreground">{t('integrations.notConnected')}</span>
					)}
					<Link to="/app/transactions/import/history" className="text-sm text-primary underline-offset-4 hover:underline">
						{t('emailSync.importHistory')}
					</Link>
				</div>
				{connected && sync.status === 'error' && sync.errorCode && (SYNC_FAILURES as readonly string[]).includes(sync.errorCode) ? (
					<Alert variant="destructive">
						<AlertCircleIcon />
						<AlertDescription>{failure(sync.errorCode)}</AlertDescription>
					</Alert>
				) : null}
				<section aria-labelledby="email-sync-runs" className="grid gap-2">
					<h3 id="email-sync-runs" className="font-semibold">
						{t('emailSync.runsTitle')}
					</h3>
					{sync.runs.length === 0 ? (
						<p className="text-sm text-muted-foreground">{t('emailSync.noRuns')}</p>
					) : (
						<Table aria-labelledby="email-sync-runs">
							<TableHeader>
								<TableRow>
									<TableHead>{t('emailSync.columns.when', { timezone: sync.timezone })}</TableHead>
									<TableHead>{t('emailSync.columns.trigger')}</TableHead>
									<TableHead>{t('emailSync.columns.result')}</TableHead>
									{COUNTS.map((c) => (
										<TableHead key={c} className="text-right">
											{t(`emailSync.counts.${c}`)}
										</TableHead>
									))}
								</TableRow>
							</TableHeader>
							<TableBody>
								{sync.runs.map((run) => (
									<TableRow key={run.id}>
										<TableCell className="whitespace-nowrap">{fmt.dateTime(run.started)}</TableCell>
										<TableCell>{t(`emailSync.trigger.${run.trigger}`)}</TableCell>
										<TableCell>
											{run.status === 'failed' ? (
												<span className="text-destructive">{failure(run.errorCode)}</span>
											) : (
												t(`emailSync.result.${run.status}`)
											)}
										</TableCell>
										{COUNTS.map((c) => (
											<TableCell key={c} className="text-right tabular-nums">
												{run.status === 'failed' ? '—' : run.counts[c]}
											</TableCell>
										))}
									</TableRow>
								))}
							</TableBody>
						</Table>
					)}
				</section>
				<section aria-labelledby="email-sync-unreadable" className="grid gap-2">
					<h3 id="email-sync-unreadable" className="font-semibold">
						{t('emailSync.unreadableTitle')}
					</h3>
					<p className="text-sm text-muted-foreground">{t('emailSync.unreadableHelp')}</p>
					{sync.unreadable.length === 0 ? (
						<p className="text-sm text-muted-foreground">{t('emailSync.noUnreadable')}</p>
					) : (
						<ul className="grid gap-1 text-sm">
							{sync.unreadable.map((n, i) => (
								<li key={`${n.sender}-${n.subject}-${n.date ?? i}`} className="rounded-md border p-2">
									<span className="font-medium">{n.subject || t('emailSync.noSubject')}</span>
									<span className="text-muted-foreground">
										{' · '}
										{n.sender}
										{n.date ? ` · ${fmt.date(n.date)}` : ''}
										{' · '}
										{t(n.reason === 'too_large' ? 'emailSync.reason.tooLarge' : 'emailSync.reason.notUnderstood')}
									</span>
								</li>
							))}
						</ul>
					)}
				</section>
			</CardContent>
		</Card>
	)
}
