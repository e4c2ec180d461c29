import { AppForm } from '#app/components/forms/app-form.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { MODULES } from '#app/lib/modules.ts'
import { API_SCOPES, type ApiScope } from '#app/lib/schemas/api-tokens.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

export type TokenRow = {
	id: string
	name: string
	prefix: string
	scopes: ApiScope[]
	createdAt: string
	lastUsedAt: string | null
	revokedAt: string | null
}

/** The API's endpoints (docs/api.md), as a program calls them. */
const API_ENDPOINTS = ['GET /api/v1/payments', 'GET /api/v1/clients']

/** A scope's label key: 'payments:read' is `scope.payments` (a colon would name a namespace to i18next). */
const scopeKey = (scope: ApiScope) => scope.slice(0, scope.indexOf(':'))

/** What the create form's answer carries: the new token (shown once), or the errors and what was typed. */
export type CreateState = {
	created: { token: string; name: string } | null
	errors: { name?: string; scopes?: string; form?: string }
	name: string
}

/** The API tokens tab (docs/product.md, API tokens): the token just made, the form, and the member's tokens. */
export function ApiTokensScreen({ active, tokens, state }: { active: boolean; tokens: TokenRow[]; state: CreateState | null }) {
	if (!active) {
		return <ModuleOffer ns="settings" prefix="apiTokens.inactive" moduleId={MODULES.crm.id} testId="api-tokens-inactive" />
	}
	return (
		<div className="grid gap-6">
			{state?.created ? <NewToken name={state.created.name} token={state.created.token} /> : null}
			<CreateTokenCard state={state} />
			<TokenList tokens={tokens} />
		</div>
	)
}

function NewToken({ name, token }: { name: string; token: string }) {
	const { t } = useTranslation('settings')
	return (
		<div role="status" className="grid gap-2 rounded-md border border-green-600/40 bg-green-50 p-4 text-sm dark:bg-green-950/30">
			<p className="font-medium">{t('apiTokens.created.title', { name })}</p>
			<p>{t('apiTokens.created.once')}</p>
			<Input readOnly value={token} aria-label={t('apiTokens.created.label')} className="font-mono text-xs" data-testid="new-token" />
		</div>
	)
}

function CreateTokenCard({ state }: { state: CreateState | null }) {
	const { t } = useTranslation('settings')
	const errors = state?.created ? {} : (state?.errors ?? {})
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('apiTokens.title')}</h2>
				</CardTitle>
				<CardDescription>{t('apiTokens.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<AppForm method="post" className="grid max-w-md gap-4" noValidate>
					<input type="hidden" name="intent" value="create" />
					{errors.form ? (
						<p role="alert" className="text-sm text-destructive">
							{t(`apiTokens.errors.${errors.form}`)}
						</p>
					) : null}
					<div className="grid gap-1.5">
						<Label htmlFor="token-name">{t('apiTokens.name')}</Label>
						<Input
							id="token-name"
							name="name"
							defaultValue={state?.created ? '' : (state?.name ?? '')}
							maxLength={100}
							aria-invalid={errors.name ? true : undefined}
							aria-describedby={errors.name ? 'token-name-error' : undefined}
						/>
						{errors.name ? (
							<p id="token-name-error" className="text-sm text-destructive">
								{t(`apiTokens.errors.${errors.name}`)}
							</p>
						) : null}
					</div>
					<fieldset className="grid gap-2" aria-describedby={errors.scopes ? 'token-scopes-error' : undefined}>
						<legend className="mb-1 text-sm font-medium">{t('apiTokens.scopes')}</legend>
						{API_SCOPES.map((scope) => (
							<label key={scope} className="flex items-center gap-2 text-sm">
								<input type="checkbox" name="scopes" value={scope} defaultChecked className="size-4 accent-primary" />
								{t(`apiTokens.scope.${scopeKey(scope)}`)}
							</label>
						))}
						{errors.scopes ? (
							<p id="token-scopes-error" className="text-sm text-destructive">
								{t(`apiTokens.errors.${errors.scopes}`)}
							</p>
						) : null}
					</fieldset>
					<SubmitButton intent="create" label={t('apiTokens.create')} pendingLabel={t('apiTokens.creating')} className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}

function TokenList({ tokens }: { tokens: TokenRow[] }) {
	const { t } = useTranslation('settings')
	const fmt = useFormat()
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('apiTokens.listTitle')}</h2>
				</CardTitle>
				<CardDescription className="flex flex-wrap items-center gap-x-2 gap-y-1">
					{t('apiTokens.docs')}
					{API_ENDPOINTS.map((endpoint) => (
						<code key={endpoint} className="text-xs">
							{endpoint}
						</code>
					))}
				</CardDescription>
			</CardHeader>
			<CardContent>
				{tokens.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('apiTokens.empty')}</p>
				) : (
					<ul className="grid gap-3" aria-label={t('apiTokens.listTitle')}>
						{tokens.map((token) => (
							<li key={token.id} className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3 text-sm">
								<div className="grid min-w-0 gap-0.5">
									<span className="font-medium wrap-anywhere">{token.name}</span>
									<span className="font-mono text-xs text-muted-foreground">{token.prefix}…</span>
									<span className="text-xs text-muted-foreground">
										{token.scopes.map((s) => t(`apiTokens.scope.${scopeKey(s)}`)).join(' · ')}
									</span>
									<span className="text-xs text-muted-foreground">
										{t('apiTokens.createdOn', { date: fmt.date(token.createdAt.slice(0, 10)) })}
										{' · '}
										{token.lastUsedAt
											? t('apiTokens.lastUsed', { date: fmt.date(token.lastUsedAt.slice(0, 10)) })
											: t('apiTokens.neverUsed')}
									</span>
								</div>
								{token.revokedAt ? (
									<span className="text-xs font-medium text-muted-foreground">
										{t('apiTokens.revokedOn', { date: fmt.date(token.revokedAt.slice(0, 10)) })}
									</span>
								) : (
									<AppForm method="post">
										<input type="hidden" name="intent" value="revoke" />
										<input type="hidden" name="id" value={token.id} />
										<Button type="submit" variant="outline" size="sm" aria-label={t('apiTokens.revokeNamed', { name: token.name })}>
											{t('apiTokens.revoke')}
										</Button>
									</AppForm>
								)}
							</li>
						))}
					</ul>
				)}
			</CardContent>
		</Card>
	)
}
