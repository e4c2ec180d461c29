import { InfoIcon, RefreshCwIcon, UploadIcon } from '#app/components/icons.tsx'
import { useEffect, useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useLocation, useNavigation } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { SYNC_FAILURES } from '#app/lib/integrations.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { P2P_MODULE_ID } from '#app/lib/modules.ts'
import { SYNC_NO_SOURCE, SYNC_UNAVAILABLE } from '#app/lib/schemas/transactions.ts'

/** The button shows its syncing label for 5 seconds (docs/product.md, Transactions). */
const SYNC_BUSY_MS = 5_000

/** The sync status as the transactions loader gives it (times in the organization's timezone). */
export type SyncView = {
	status: 'idle' | 'pending' | 'error'
	errorMessage: string | null
	lastSynced: { date: string; time: string } | null
	timezone: string
}

export function SyncButton() {
	const { t } = useTranslation('transactions')
	const navigation = useNavigation()
	const location = useLocation()
	const [busyUntil, setBusyUntil] = useState(0)
	useEffect(() => {
		if (busyUntil === 0) return
		const timer = setTimeout(() => setBusyUntil(0), Math.max(0, busyUntil - Date.now()))
		return () => clearTimeout(timer)
	}, [busyUntil])
	const submitting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'sync'
	const busy = submitting || busyUntil > 0
	return (
		<AppForm method="post" action={location.pathname + location.search} onSubmit={() => setBusyUntil(Date.now() + SYNC_BUSY_MS)}>
			<Button type="submit" name="intent" value="sync" variant="outline" disabled={busy} aria-live="polite">
				{busy ? <Spinner aria-label={t('sync.syncing')} /> : <RefreshCwIcon aria-hidden="true" />}
				{busy ? t('sync.syncing') : t('sync.button')}
			</Button>
		</AppForm>
	)
}

/** The way to the import screen (docs/product.md, Imports): next to Sync, and in its outcome. */
export function ImportLink() {
	const { t } = useTranslation('imports')
	return (
		<Button asChild variant="outline">
			<Link to="/app/transactions/import">
				<UploadIcon aria-hidden="true" />
				{t('links.import')}
			</Link>
		</Button>
	)
}

export function SyncStatus({ sync }: { sync: SyncView }) {
	const fmt = useFormat()
	const { t } = useTranslation('transactions')
	const known = sync.errorMessage === SYNC_NO_SOURCE || sync.errorMessage === SYNC_UNAVAILABLE
	const outcome = sync.errorMessage === SYNC_UNAVAILABLE ? 'unavailable' : 'noSource'
	// A failed email sync stores its failure's code: said in the user's language, with what to do.
	const failure = (SYNC_FAILURES as readonly (string | null)[]).includes(sync.errorMessage) ? sync.errorMessage : null
	return (
		<div className="grid gap-3">
			<dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
				<div className="flex gap-1.5">
					<dt className="text-muted-foreground">{t('sync.statusLabel')}</dt>
					<dd className="font-medium" data-testid="sync-status">
						{sync.status === 'error' && known ? t(`sync.outcome.${outcome}.status`) : t(`sync.status.${sync.status}`)}
					</dd>
				</div>
				<div className="flex gap-1.5">
					<dt className="text-muted-foreground">{t('sync.lastSyncLabel')}</dt>
					<dd className="font-medium">
						{sync.lastSynced
							? t('sync.lastSyncAt', { date: fmt.date(sync.lastSynced.date), time: sync.lastSynced.time, timezone: sync.timezone })
							: t('sync.never')}
					</dd>
				</div>
			</dl>
			{sync.status === 'error' ? (
				<Alert>
					<InfoIcon />
					<AlertTitle>{known ? t(`sync.outcome.${outcome}.title`) : t('sync.failed')}</AlertTitle>
					<AlertDescription>
						<p>{known ? t(`sync.outcome.${outcome}.description`) : failure ? t(`sync.failure.${failure}`) : sync.errorMessage}</p>
						<p className="flex flex-wrap gap-x-4">
							<Link to={`/app/modules/${P2P_MODULE_ID}#email-sync`} className="text-primary underline-offset-4 hover:underline">
								{t('sync.connectLink')}
							</Link>
							<Link to="/app/transactions/import" className="text-primary underline-offset-4 hover:underline">
								{t('imports:links.import')}
							</Link>
						</p>
					</AlertDescription>
				</Alert>
			) : null}
		</div>
	)
}
