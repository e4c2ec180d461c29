import type { MailboxSetup } from '#app/.server/payments/email-sync/setup.ts'
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
	/** The next step towards an email sync, or the connected mailbox (null in the edit mode, which shows no status). */
	setup: MailboxSetup | null
}

/** Where each step is taken: the marketplace, the upgrade's dialog on the module page, the module's mailbox card. */
function stepLink(setup: Exclude<MailboxSetup, { step: 'connected' }>) {
	const modulePage = `/app/modules/${P2P_MODULE_ID}`
	if (setup.step === 'activate') return '/app/module-marketplace'
	if (setup.step === 'upgrade') return setup.upgradeId ? `${modulePage}?upgrade=${setup.upgradeId}` : modulePage
	return `${modulePage}#integrations`
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
	const { setup } = sync
	// "No source" said before a mailbox was connected is out of date once one is: the mailbox's state says more.
	const outdated = sync.errorMessage === SYNC_NO_SOURCE && setup?.step === 'connected'
	const status = outdated ? 'idle' : sync.status
	const known = sync.errorMessage === SYNC_NO_SOURCE || sync.errorMessage === SYNC_UNAVAILABLE
	const outcome = sync.errorMessage === SYNC_UNAVAILABLE ? 'unavailable' : 'noSource'
	const nextStep = setup && setup.step !== 'connected' ? setup : null
	// A failed email sync stores its failure's code: said in the user's language, with what to do.
	const failure = (SYNC_FAILURES as readonly (string | null)[]).includes(sync.errorMessage) ? sync.errorMessage : null
	return (
		<div className="grid gap-3">
			<dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
				<div className="flex gap-1.5">
					<dt className="text-muted-foreground">{t('sync.statusLabel')}</dt>
					<dd className="font-medium" data-testid="sync-status">
						{status === 'error' && known ? t(`sync.outcome.${outcome}.status`) : t(`sync.status.${status}`)}
					</dd>
				</div>
				{setup?.step === 'connected' ? (
					<div className="flex gap-1.5">
						<dt className="text-muted-foreground">{t('sync.mailboxLabel')}</dt>
						<dd className="font-medium" data-testid="sync-mailbox">
							{t(`sync.mailbox.${setup.mailbox.status === 'error' ? 'error' : 'connected'}`, { account: setup.mailbox.account ?? '' })}
						</dd>
					</div>
				) : null}
				<div className="flex gap-1.5">
					<dt className="text-muted-foreground">{t('sync.lastSyncLabel')}</dt>
					<dd className="font-medium">
						{sync.lastSynced
							? t('sync.lastSyncAt', { date: fmt.date(sync.lastSynced.date), time: sync.lastSynced.time, timezone: sync.timezone })
							: t('sync.never')}
					</dd>
				</div>
			</dl>
			{status === 'error' ? (
				<Alert>
					<InfoIcon />
					<AlertTitle>{known ? t(`sync.outcome.${outcome}.title`) : t('sync.failed')}</AlertTitle>
					<AlertDescription>
						<p>{known ? t(`sync.outcome.${outcome}.description`) : failure ? t(`sync.failure.${failure}`) : sync.errorMessage}</p>
						{/* The one step still to take, never one already done (docs/product.md, Transactions). */}
						{outcome === 'noSource' && known && nextStep ? (
							<p data-testid="sync-next-step">{t(`sync.setup.${nextStep.step}.text`)}</p>
						) : null}
						<p className="flex flex-wrap gap-x-4">
							{outcome === 'noSource' && known && nextStep ? (
								<Link to={stepLink(nextStep)} className="font-medium text-primary underline-offset-4 hover:underline">
									{t(`sync.setup.${nextStep.step}.link`)}
								</Link>
							) : (
								<Link to={`/app/modules/${P2P_MODULE_ID}#email-sync`} className="text-primary underline-offset-4 hover:underline">
									{t('sync.connectLink')}
								</Link>
							)}
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
