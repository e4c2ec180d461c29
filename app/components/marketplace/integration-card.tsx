import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { AlertCircleIcon, MailIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Alert, AlertDescription } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import type { IntegrationView } from '#app/.server/marketplace/module-page.ts'
import { CHECK_FAILURES, INTEGRATION_PROVIDERS } from '#app/lib/integrations.ts'
import { imapConnectSchema } from '#app/lib/schemas/integrations.ts'

/** A provider's name as people know it ('imap' shows as 'IMAP mailbox'). */
export function useProviderName() {
	const { t } = useTranslation('marketplace')
	return (provider: string) =>
		(INTEGRATION_PROVIDERS as readonly string[]).includes(provider) ? t(`integrations.provider.${provider}`) : provider
}

/** A stored error: a check failure's code in the user's language, any other text as it is. */
export function useIntegrationError() {
	const { t } = useTranslation('marketplace')
	return (message: string) => ((CHECK_FAILURES as readonly string[]).includes(message) ? t(`integrations.failures.${message}`) : message)
}

/**
 * The integration card of the email upgrade (docs/product.md, Integrations): the mailboxes, each
 * with its status, account, last sync and error, Refresh Status and Disconnect; with none
 * connected, Connect Gmail and the IMAP form; with Email Pro, "Connect another mailbox" up to its
 * limit (docs/decisions/051-several-mailboxes.md). Every button is a plain form post (works
 * without JavaScript).
 */
export function IntegrationCard({
	integration,
	mailboxes,
	emailPro,
	mailboxLimit,
	canManage,
	gmailAvailable,
	lastResult,
}: {
	/** The latest connection when no mailbox is connected (shown as Disconnected), else the first mailbox. */
	integration: IntegrationView | null
	/** The connected mailboxes, oldest first. */
	mailboxes: IntegrationView[]
	emailPro: boolean
	mailboxLimit: number
	canManage: boolean
	/** Whether this server has a Google client (GOOGLE_CLIENT_ID and its secret): without one, Gmail cannot be connected. */
	gmailAvailable: boolean
	lastResult?: SubmissionResult<string[]> | null
}) {
	const { t } = useTranslation('marketplace')
	const connected = mailboxes.length > 0
	const connect = <ConnectOptions gmailAvailable={gmailAvailable} lastResult={lastResult} />
	return (
		<Card id="integrations" role="region" aria-labelledby="integrations-title">
			<CardHeader>
				<CardTitle>
					<h2 id="integrations-title">{t('integrations.title')}</h2>
				</CardTitle>
				<CardDescription>{t('integrations.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				{connected ? (
					<ul className="grid gap-4" aria-label={t('integrations.mailboxes.label')}>
						{mailboxes.map((mailbox) => (
							<li key={mailbox.id} className="grid gap-3 border-b pb-4 last:border-b-0 last:pb-0">
								<MailboxDetails mailbox={mailbox} connected />
								{canManage ? <MailboxButtons mailbox={mailbox} /> : null}
							</li>
						))}
					</ul>
				) : integration ? (
					<MailboxDetails mailbox={integration} connected={false} />
				) : (
					<p className="text-sm text-muted-foreground">{t('integrations.notConnected')}</p>
				)}
				{!canManage ? (
					<p className="text-sm text-muted-foreground">{t('integrations.ownerOnly')}</p>
				) : !connected ? (
					connect
				) : !emailPro ? null : mailboxes.length < mailboxLimit ? (
					<section aria-labelledby="connect-another-title" className="grid gap-3 border-t pt-4">
						<h3 id="connect-another-title" className="font-semibold">
							{t('integrations.mailboxes.connectAnother')}
						</h3>
						<p className="text-sm text-muted-foreground">
							{t('integrations.mailboxes.count', { count: mailboxes.length, limit: mailboxLimit })}
						</p>
						{connect}
					</section>
				) : (
					<p className="text-sm text-muted-foreground">{t('integrations.mailboxes.limitReached', { limit: mailboxLimit })}</p>
				)}
			</CardContent>
		</Card>
	)
}

/** One mailbox: provider and status, account, last sync, last check, and its error or why it is paused. */
function MailboxDetails({ mailbox, connected }: { mailbox: IntegrationView; connected: boolean }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const providerName = useProviderName()
	const errorText = useIntegrationError()
	const status = mailbox.paused ? 'paused' : mailbox.status
	return (
		<>
			<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" aria-label={mailbox.account ?? t('integrations.title')}>
				<dt className="text-muted-foreground">{t('integrations.status.label')}</dt>
				<dd className="flex items-center gap-2">
					<MailIcon className="size-4" aria-hidden="true" />
					<span>{providerName(mailbox.provider)}</span>
					<Badge variant={status === 'connected' ? 'default' : status === 'error' ? 'destructive' : 'secondary'}>
						{t(`integrations.status.${status}`)}
					</Badge>
				</dd>
				{mailbox.account ? (
					<>
						<dt className="text-muted-foreground">{t('integrations.account')}</dt>
						<dd>{mailbox.account}</dd>
					</>
				) : null}
				<dt className="text-muted-foreground">{t('integrations.lastSync')}</dt>
				<dd>{mailbox.lastSync ? fmt.date(mailbox.lastSync) : t('integrations.never')}</dd>
				{mailbox.lastChecked && connected ? (
					<>
						<dt className="text-muted-foreground">{t('integrations.lastChecked')}</dt>
						<dd>{fmt.dateTime(mailbox.lastChecked)}</dd>
					</>
				) : null}
			</dl>
			{mailbox.paused ? <p className="text-sm text-muted-foreground">{t('integrations.mailboxes.paused')}</p> : null}
			{mailbox.errorMessage && connected ? (
				<Alert variant="destructive">
					<AlertCircleIcon />
					<AlertDescription>{errorText(mailbox.errorMessage)}</AlertDescription>
				</Alert>
			) : null}
		</>
	)
}

/** Refresh Status and Disconnect of one mailbox, named with its account when there are several. */
function MailboxButtons({ mailbox }: { mailbox: IntegrationView }) {
	const { t } = useTranslation('marketplace')
	const named = (label: string) => (mailbox.account ? `${label} ${mailbox.account}` : undefined)
	return (
		<div className="flex flex-wrap gap-2">
			<AppForm method="post">
				<input type="hidden" name="intent" value="refreshIntegration" />
				<input type="hidden" name="credentialId" value={mailbox.id} />
				<Button type="submit" aria-label={named(t('integrations.refresh'))}>
					{t('integrations.refresh')}
				</Button>
			</AppForm>
			<AppForm method="post">
				<input type="hidden" name="intent" value="disconnectIntegration" />
				<input type="hidden" name="credentialId" value={mailbox.id} />
				<Button type="submit" aria-label={named(t('integrations.disconnect'))}>
					{t('integrations.disconnect')}
				</Button>
			</AppForm>
		</div>
	)
}

/** Connect Gmail (disabled, with the reason, without a Google client) and the IMAP form. */
function ConnectOptions({ gmailAvailable, lastResult }: { gmailAvailable: boolean; lastResult?: SubmissionResult<string[]> | null }) {
	const { t } = useTranslation('marketplace')
	return (
		<>
			{gmailAvailable ? (
				<AppForm method="post">
					<input type="hidden" name="intent" value="connectGoogle" />
					<SubmitButton intent="connectGoogle" label={t('integrations.connectGmail')} pendingLabel={t('integrations.connecting')} />
				</AppForm>
			) : (
				<div className="grid justify-items-start gap-1">
					<Button type="button" disabled aria-describedby="gmail-unavailable">
						{t('integrations.connectGmail')}
					</Button>
					<p id="gmail-unavailable" className="text-sm text-muted-foreground">
						{t('integrations.gmailUnavailable')}
					</p>
				</div>
			)}
			<ImapForm lastResult={lastResult} />
		</>
	)
}

function ImapForm({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
	const { t } = useTranslation('marketplace')
	const [form, fields] = useForm({
		id: 'imap-connect',
		lastResult,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: imapConnectSchema }),
		shouldValidate: 'onSubmit',
		defaultValue: { port: '993', tls: 'on' },
	})
	const fieldError = (errors: string[] | undefined) => (errors ? t(errors[0]!) : undefined)
	return (
		<section aria-labelledby="imap-title" className="grid gap-3 border-t pt-4">
			<h3 id="imap-title" className="font-semibold">
				{t('integrations.imapTitle')}
			</h3>
			<p className="text-sm text-muted-foreground">{t('integrations.imapHelp')}</p>
			{form.errors ? (
				<Alert variant="destructive" id={form.errorId}>
					<AlertCircleIcon />
					<AlertDescription>{t(form.errors[0]!)}</AlertDescription>
				</Alert>
			) : null}
			<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-3 sm:grid-cols-2">
				<input type="hidden" name="intent" value="connectImap" />
				<Field
					label={t('integrations.fields.host')}
					htmlFor={fields.host.id}
					errorId={fields.host.errorId}
					error={fieldError(fields.host.errors)}
				>
					<Input {...getInputProps(fields.host, { type: 'text' })} autoComplete="off" placeholder="imap.example.com" />
				</Field>
				<Field
					label={t('integrations.fields.port')}
					htmlFor={fields.port.id}
					errorId={fields.port.errorId}
					error={fieldError(fields.port.errors)}
				>
					<Input {...getInputProps(fields.port, { type: 'number' })} min={1} max={65535} />
				</Field>
				<Field
					label={t('integrations.fields.user')}
					htmlFor={fields.user.id}
					errorId={fields.user.errorId}
					error={fieldError(fields.user.errors)}
				>
					<Input {...getInputProps(fields.user, { type: 'text' })} autoComplete="off" />
				</Field>
				<Field
					label={t('integrations.fields.password')}
					htmlFor={fields.password.id}
					errorId={fields.password.errorId}
					error={fieldError(fields.password.errors)}
				>
					{/* Never filled in again from a reply: the action hides it. */}
					<Input {...getInputProps(fields.password, { type: 'password' })} autoComplete="new-password" />
				</Field>
				<div className="flex items-center gap-2 sm:col-span-2">
					<input {...getInputProps(fields.tls, { type: 'checkbox' })} className="size-4 accent-primary" />
					<label htmlFor={fields.tls.id} className="text-sm">
						{t('integrations.fields.tls')}
					</label>
				</div>
				<div className="sm:col-span-2">
					<SubmitButton intent="connectImap" label={t('integrations.connectImap')} pendingLabel={t('integrations.connecting')} />
				</div>
			</AppForm>
		</section>
	)
}
