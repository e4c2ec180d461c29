import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Link } from '#app/components/link.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { formatInstant } from '#app/lib/format.ts'
import { createEndpointSchema, WEBHOOK_EVENTS } from '#app/lib/schemas/webhooks.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

export type EndpointView = { id: string; url: string; description: string | null; events: string[]; enabled: boolean }
export type DeliveryView = {
	id: string
	endpointUrl: string
	type: string
	status: 'pending' | 'delivered' | 'failed'
	attempts: number
	responseStatus: number | null
	error: string | null
	lastAttemptAt: string | null
	nextAttemptAt: string | null
	createdAt: string
}

/** The secret of the endpoint just added: shown this once. */
export function SecretOnce({ url, secret }: { url: string; secret: string }) {
	const { t } = useTranslation('webhooks')
	return (
		<Alert data-testid="webhook-secret">
			<AlertTitle>{t('secret.title')}</AlertTitle>
			<AlertDescription className="grid gap-2">
				<span>{t('secret.description', { url })}</span>
				<Label htmlFor="webhook-secret-value">{t('secret.label')}</Label>
				<Input id="webhook-secret-value" readOnly value={secret} className="font-mono" />
			</AlertDescription>
		</Alert>
	)
}

/**
 * The form that adds an endpoint: its address, a description, the events it wants. A plain form
 * that works without JavaScript; errors come back under their fields in the user's language.
 */
export function NewEndpointForm({ result, formError }: { result: SubmissionResult<string[]> | undefined; formError?: string }) {
	const { t } = useTranslation('webhooks')
	const [form, fields] = useForm({
		id: 'new-webhook-endpoint',
		lastResult: result,
		defaultValue: { events: ['payment.received'] },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: createEndpointSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const error = (errors: string[] | undefined) => (errors?.length ? t(`errors.${errors[0]}`) : undefined)
	const chosen = new Set([fields.events.initialValue ?? []].flat().filter((v): v is string => typeof v === 'string'))
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('new.title')}</h2>
				</CardTitle>
				<CardDescription>{t('new.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="create" />
					<FormAlert ns="webhooks" code={formError} />
					<Field label={t('new.url')} htmlFor={fields.url.id} error={error(fields.url.errors)} errorId={fields.url.errorId}>
						<Input {...getInputProps(fields.url, { type: 'url' })} placeholder="https://example.com/hooks/p2p" autoComplete="off" />
					</Field>
					<Field
						label={t('new.descriptionLabel')}
						htmlFor={fields.description.id}
						error={error(fields.description.errors)}
						errorId={fields.description.errorId}
					>
						<Input {...getInputProps(fields.description, { type: 'text' })} maxLength={200} />
					</Field>
					<fieldset className="grid gap-2" aria-describedby={fields.events.errors?.length ? fields.events.errorId : undefined}>
						<legend className="mb-1 text-sm font-medium">{t('new.events')}</legend>
						{WEBHOOK_EVENTS.map((event) => (
							<div key={event} className="flex items-center gap-2">
								<input
									type="checkbox"
									id={`webhook-event-${event}`}
									name={fields.events.name}
									value={event}
									defaultChecked={chosen.has(event)}
									className="size-4"
								/>
								<Label htmlFor={`webhook-event-${event}`}>
									<span className="font-mono text-xs">{event}</span> · {t(`events.${event}`)}
								</Label>
							</div>
						))}
						{fields.events.errors?.length ? (
							<p id={fields.events.errorId} className="text-sm text-destructive">
								{error(fields.events.errors)}
							</p>
						) : null}
					</fieldset>
					<div>
						<SubmitButton label={t('new.submit')} pendingLabel={t('new.submitting')} intent="create" />
					</div>
				</AppForm>
			</CardContent>
		</Card>
	)
}

/** The organization's endpoints, each with a button that removes it. */
export function EndpointList({ endpoints, removing }: { endpoints: EndpointView[]; removing: string | null }) {
	const { t } = useTranslation('webhooks')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('endpoints.title')}</h2>
				</CardTitle>
				<CardDescription>{t('endpoints.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				{endpoints.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('endpoints.empty')}</p>
				) : (
					<ul className="grid gap-3">
						{endpoints.map((endpoint) => (
							<li key={endpoint.id} className="grid gap-3 rounded-md border p-3" data-testid="webhook-endpoint">
								<div className="flex flex-wrap items-start justify-between gap-3">
									<div className="grid min-w-0 gap-1">
										<span className="font-mono text-sm break-all">{endpoint.url}</span>
										{endpoint.description ? <span className="text-sm text-muted-foreground">{endpoint.description}</span> : null}
										<span className="flex flex-wrap gap-1">
											{endpoint.enabled ? null : <Badge variant="outline">{t('endpoints.paused')}</Badge>}
											{endpoint.events.map((event) => (
												<Badge key={event} variant="secondary" className="font-mono">
													{event}
												</Badge>
											))}
										</span>
									</div>
									<div className="flex flex-wrap gap-2">
										<AppForm method="post">
											<input type="hidden" name="endpointId" value={endpoint.id} />
											<Button
												type="submit"
												name="intent"
												value={endpoint.enabled ? 'pause' : 'resume'}
												variant="outline"
												size="sm"
												aria-label={t(endpoint.enabled ? 'endpoints.pauseLabel' : 'endpoints.resumeLabel', { url: endpoint.url })}
											>
												{t(endpoint.enabled ? 'endpoints.pause' : 'endpoints.resume')}
											</Button>
										</AppForm>
										<Button asChild variant="outline" size="sm">
											<Link to={`?remove=${endpoint.id}`} preventScrollReset aria-label={t('endpoints.deleteLabel', { url: endpoint.url })}>
												{t('endpoints.delete')}
											</Link>
										</Button>
									</div>
								</div>
								{removing === endpoint.id ? <ConfirmRemove endpoint={endpoint} /> : null}
							</li>
						))}
					</ul>
				)}
			</CardContent>
		</Card>
	)
}

/** The confirmation a removal asks for: the endpoint and its delivery log go, and its secret with it. */
function ConfirmRemove({ endpoint }: { endpoint: EndpointView }) {
	const { t } = useTranslation('webhooks')
	const titleId = `remove-endpoint-${endpoint.id}`
	return (
		<Alert variant="destructive" role="alertdialog" aria-labelledby={titleId}>
			<AlertTitle id={titleId}>{t('endpoints.confirm.title')}</AlertTitle>
			<AlertDescription>
				<p>{t('endpoints.confirm.description', { url: endpoint.url })}</p>
				<div className="mt-3 flex flex-wrap gap-2">
					<AppForm method="post">
						<input type="hidden" name="endpointId" value={endpoint.id} />
						<Button type="submit" name="intent" value="delete" variant="destructive" size="sm">
							{t('endpoints.confirm.remove')}
						</Button>
					</AppForm>
					<Button asChild variant="outline" size="sm">
						<Link to="/app/webhooks" preventScrollReset>
							{t('endpoints.confirm.cancel')}
						</Link>
					</Button>
				</div>
			</AlertDescription>
		</Alert>
	)
}

/** The delivery log: each delivery's event, status, last answer, attempts and times, with a resend button. */
export function DeliveryLog({ deliveries, timezone }: { deliveries: DeliveryView[]; timezone: string }) {
	const { t, i18n } = useTranslation('webhooks')
	const at = (instant: string | null) => (instant ? formatInstant(instant, timezone, i18n.language, { date: 'numeric' }) : '—')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('log.title')}</h2>
				</CardTitle>
				<CardDescription>{t('log.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				{deliveries.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('log.empty')}</p>
				) : (
					<div className="overflow-x-auto">
						<table className="w-full text-sm">
							<thead className="text-left text-muted-foreground">
								<tr>
									<th className="py-2 pr-3 font-medium">{t('log.event')}</th>
									<th className="py-2 pr-3 font-medium">{t('log.status')}</th>
									<th className="py-2 pr-3 font-medium">{t('log.response')}</th>
									<th className="py-2 pr-3 font-medium">{t('log.attempts')}</th>
									<th className="py-2 pr-3 font-medium">{t('log.lastAttempt')}</th>
									<th className="py-2 pr-3 font-medium">{t('log.nextAttempt')}</th>
									<th className="py-2 font-medium">
										<span className="sr-only">{t('log.actions')}</span>
									</th>
								</tr>
							</thead>
							<tbody>
								{deliveries.map((d) => (
									<tr key={d.id} className="border-t align-top" data-testid="webhook-delivery">
										<td className="py-2 pr-3">
											<span className="font-mono">{d.type}</span>
											<span className="block text-xs break-all text-muted-foreground">{d.endpointUrl}</span>
										</td>
										<td className="py-2 pr-3">
											<Badge variant={d.status === 'failed' ? 'destructive' : d.status === 'delivered' ? 'default' : 'secondary'}>
												{t(`status.${d.status}`)}
											</Badge>
										</td>
										<td className="py-2 pr-3">{d.responseStatus ?? (d.error && d.error !== 'status' ? t(`failure.${d.error}`) : '—')}</td>
										<td className="py-2 pr-3">{d.attempts}</td>
										<td className="py-2 pr-3">{at(d.lastAttemptAt)}</td>
										<td className="py-2 pr-3">{at(d.nextAttemptAt)}</td>
										<td className="py-2">
											<AppForm method="post">
												<input type="hidden" name="intent" value="resend" />
												<input type="hidden" name="deliveryId" value={d.id} />
												<Button type="submit" variant="outline" size="sm">
													{d.status === 'pending' && d.attempts === 0 ? t('log.sendNow') : t('log.resend')}
												</Button>
											</AppForm>
										</td>
									</tr>
								))}
							</tbody>
						</table>
					</div>
				)}
			</CardContent>
		</Card>
	)
}
