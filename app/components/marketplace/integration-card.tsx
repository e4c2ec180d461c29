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
 * The integration card of the email upgrade (docs/product.md, Integrations): the mailbox, its
 * status, last sync and error; Refresh Status and Disconnect when connected; otherwise Connect
 * Gmail and the IMAP form. Every button is a plain form post (works without JavaScript).
 */
export function IntegrationCard({
	integration,
	canManage,
	gmailAvailable,
	lastResult,
}: {
	integration: IntegrationView | null
	canManage: boolean
	/** Whether this server has a Google client (GOOGLE_CLIENT_ID and its secret): without one, Gmail cannot be connected. */
	gmailAvailable: boolean
	lastResult?: SubmissionResult<string[]> | null
}) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const providerName = useProviderName()
	const errorText = useIntegrationError()
	const connected = integration !== null && integration.status !== 'disconnected'
	return (
		<Card id="integrations" role="region" aria-labelledby="integrations-title">
			<CardHeader>
				<CardTitle>
					<h2 id="integrations-title">{t('integrations.title')}</h2>
				</CardTitle>
				<CardDescription>{t('integrations.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				{integration ? (
					<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" aria-label={t('integrations.title')}>
						<dt className="text-muted-foreground">{t('integrations.status.label')}</dt>
						<dd className="flex items-center gap-2">
							<MailIcon className="size-4" aria-hidden="true" />
							<span>{providerName(integration.provider)}</span>
							<Badge
								variant={integration.status === 'connected' ? 'default' : integration.status === 'error' ? 'destructive' : 'secondary'}
							>
								{t(`integrations.status.${integration.status}`)}
							</Badge>
						</dd>
						{integration.account ? (
							<>
								<dt className="text-muted-foreground">{t('integrations.account')}</dt>
								<dd>{integration.account}</dd>
							</>
						) : null}
						<dt className="text-muted-foreground">{t('integrations.lastSync')}</dt>
						<dd>{integration.lastSync ? fmt.date(integration.lastSync) : t('integrations.never')}</dd>
						{integration.lastChecked && connected ? (
							<>
								<dt className="text-muted-foreground">{t('integrations.lastChecked')}</dt>
								<dd>{fmt.dateTime(integration.lastChecked)}</dd>
							</>
						) : null}
					</dl>
				) : (
					<p className="text-sm text-muted-foreground">{t('integrations.notConnected')}</p>
				)}
				{integration?.errorMessage && connected ? (
					<Alert variant="destructive">
						<AlertCircleIcon />
						<AlertDescription>{errorText(integration.errorMessage)}</AlertDescription>
					</Alert>
				) : null}
				{!canManage ? (
					<p className="text-sm text-muted-foreground">{t('integrations.ownerOnly')}</p>
				) : connected ? (
					<div className="flex flex-wrap gap-2">
						<AppForm method="post">
							<input type="hidden" name="intent" value="refreshIntegration" />
							<input type="hidden" name="credentialId" value={integration.id} />
							<SubmitButton intent="refreshIntegration" label={t('integrations.refresh')} pendingLabel={t('integrations.refresh')} />
						</AppForm>
						<AppForm method="post">
							<input type="hidden" name="intent" value="disconnectIntegration" />
							<input type="hidden" name="credentialId" value={integration.id} />
							<SubmitButton
								intent="disconnectIntegration"
								label={t('integrations.disconnect')}
								pendingLabel={t('integrations.disconnect')}
							/>
						</AppForm>
					</div>
				) : (
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
				)}
			</CardContent>
		</Card>
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
