import { useTranslation } from '#app/lib/use-translation.ts'
import { redirect } from 'react-router'
import { requireMember } from '#app/.server/auth/session.ts'
import { forgetMapping, listSavedMappings, type SavedMapping } from '#app/.server/payments/imports/queries.ts'
import type { BlockingImport } from '#app/.server/payments/imports/pipeline.ts'
import { handleUpload, type MappingStep, type UploadError } from '#app/.server/payments/imports/upload.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ImportHeader, ImportProgress, useProgressToken } from '#app/components/payments/imports.tsx'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { guessMapping, MAX_IMPORT_BYTES, MAX_IMPORT_COLUMNS, MAX_IMPORT_LINE_CHARS, MAX_IMPORT_ROWS } from '#app/lib/imports.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { Link } from '#app/components/link.tsx'
import { PAYMENT_METHODS } from '#app/lib/schemas/transactions.ts'
import type { Route } from './+types/upload'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('importPayments')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	return {
		// A file over the request cap is refused before the action and sent back here to say so.
		tooLarge: new URL(request.url).searchParams.get('error') === 'tooLarge',
		mappings: await listSavedMappings(user.userId, organization.id),
	}
}

/** Upload (or the mapping of a file no layout fits): stages a preview batch and shows it. */
export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	const form = await request.formData()
	// The upload and the mapping form; a stray or forged intent is refused, not read as an upload.
	const intent = form.get('intent')
	if (intent === 'forget-mapping') {
		const signature = form.get('signature')
		if (typeof signature !== 'string' || !signature || signature.length > 2000) errorResponse(400, 'badRequest')
		const forgotten = await forgetMapping(user.userId, organization.id, signature)
		return redirectWithToast(
			'/app/transactions/import',
			forgotten ? { type: 'success', title: 'imports:mappings.forgotten' } : { type: 'info', title: 'imports:mappings.gone' },
		)
	}
	if (intent !== 'upload' && intent !== 'map') errorResponse(400, 'badRequest')
	const outcome = await handleUpload(form, user, organization.id)
	if (outcome.ok) return redirect(`/app/transactions/import/${outcome.batchId}`)
	if ('mapping' in outcome) return { error: outcome.error, mapping: outcome.mapping, blocking: null }
	return { error: outcome.error, mapping: null, blocking: outcome.blocking ?? null }
}

export default function ImportUpload({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('imports')
	const token = useProgressToken()
	const mapping = actionData?.mapping ?? null
	return (
		<div className="grid grid-cols-1 gap-6">
			<ImportHeader title={t('title')} description={t('description')} current="import" />
			{mapping ? (
				<MappingForm mapping={mapping} token={token} />
			) : (
				<>
					<UploadForm
						error={actionData?.error ?? (loaderData.tooLarge ? 'tooLarge' : null)}
						blocking={actionData?.blocking ?? null}
						token={token}
					/>
					{loaderData.mappings.length > 0 ? <SavedMappings mappings={loaderData.mappings} /> : null}
				</>
			)}
		</div>
	)
}

function UploadForm({ error, blocking, token }: { error: UploadError | null; blocking: BlockingImport | null; token: string }) {
	const { t } = useTranslation('imports')
	const fmt = useFormat()
	// The limits, in the user's number format, for the help and the messages that name them.
	const limits = { rows: fmt.number(MAX_IMPORT_ROWS), columns: fmt.number(MAX_IMPORT_COLUMNS), chars: fmt.number(MAX_IMPORT_LINE_CHARS) }
	return (
		<Card>
			<CardContent>
				<AppForm method="post" encType="multipart/form-data" className="grid max-w-xl gap-4">
					<input type="hidden" name="progress" value={token} />
					<Field
						label={t('upload.label')}
						htmlFor="import-file"
						error={error ? t(`fileErrors.${error}`, limits) : undefined}
						errorId="import-file-error"
					>
						<Input
							id="import-file"
							name="file"
							type="file"
							accept=".csv,text/csv,text/plain"
							required
							aria-invalid={error ? true : undefined}
							aria-describedby={error ? 'import-file-error import-file-help' : 'import-file-help'}
							// With JavaScript a file over the limit is refused before it is sent.
							onChange={(event) => {
								const file = event.currentTarget.files?.[0]
								event.currentTarget.setCustomValidity(file && file.size > MAX_IMPORT_BYTES ? t('fileErrors.tooLarge') : '')
							}}
						/>
					</Field>
					{error === 'importInProgress' && blocking ? (
						<p className="text-sm">
							<Link to={`/app/transactions/import/${blocking.id}`} className="text-primary underline-offset-4 hover:underline">
								{t('upload.openBlocking', { file: blocking.fileName ?? '—', who: blocking.who ?? '—' })}
							</Link>
						</p>
					) : null}
					<p id="import-file-help" className="text-sm text-muted-foreground">
						{t('upload.help', limits)}
					</p>
					<div>
						<SubmitButton intent="upload" label={t('upload.submit')} pendingLabel={t('upload.submitting')} />
						<input type="hidden" name="intent" value="upload" />
					</div>
					<ImportProgress token={token} intent="upload" />
				</AppForm>
			</CardContent>
		</Card>
	)
}

const MAPPED = ['date', 'amount', 'payer', 'externalId', 'description'] as const

function MappingForm({ mapping, token }: { mapping: MappingStep; token: string }) {
	const { t, i18n } = useTranslation(['imports', 'transactions'])
	const optional = new Set(['externalId', 'description'])
	// Pre-selected by the columns' names in en, es and pt-BR; each choice shows the file's first values under it.
	const guess = guessMapping(mapping.headers)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('mapping.title')}</h2>
				</CardTitle>
				<CardDescription>{t('mapping.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<AppForm method="post" encType="multipart/form-data" className="grid max-w-xl gap-4">
					<p className="text-sm">{t('mapping.file', { name: mapping.fileName })}</p>
					{mapping.invalid ? (
						<p role="alert" className="text-sm text-destructive">
							{t('fileErrors.mappingInvalid')}
						</p>
					) : null}
					<input type="hidden" name="intent" value="map" />
					<input type="hidden" name="progress" value={token} />
					<input type="hidden" name="fileName" value={mapping.fileName} />
					<textarea name="csv" defaultValue={mapping.csv} hidden readOnly aria-hidden="true" />
					{MAPPED.map((key) => {
						const error = mapping.errors?.[key] ? t('mapping.required') : undefined
						return (
							<Field
								key={key}
								label={t(key === 'description' ? 'mapping.description_column' : `mapping.${key}`)}
								htmlFor={`map-${key}`}
								error={error}
								errorId={`map-${key}-error`}
							>
								<NativeSelect
									id={`map-${key}`}
									name={key}
									defaultValue={guess[key]}
									required={!optional.has(key)}
									aria-invalid={error ? true : undefined}
									aria-describedby={error ? `map-${key}-error` : undefined}
								>
									<option value="">{optional.has(key) ? t('mapping.none') : '—'}</option>
									{mapping.headers.map((h, i) => (
										<option key={h} value={h}>
											{mapping.samples[i]?.length ? t('mapping.withSamples', { column: h, samples: mapping.samples[i]!.join(' · ') }) : h}
										</option>
									))}
								</NativeSelect>
							</Field>
						)
					})}
					<Field label={t('mapping.method')} htmlFor="map-method">
						<NativeSelect id="map-method" name="method" defaultValue="Other">
							{PAYMENT_METHODS.map((m) => (
								<option key={m} value={m}>
									{t(`transactions:methods.${m}`)}
								</option>
							))}
						</NativeSelect>
					</Field>
					{/* Spreadsheets in Spanish and Portuguese write the day first: the language's way is the default. */}
					<Field label={t('mapping.dateOrder')} htmlFor="map-date-order">
						<NativeSelect id="map-date-order" name="dateOrder" defaultValue={i18n.language === 'en' ? 'mdy' : 'dmy'}>
							<option value="mdy">{t('mapping.monthFirst')}</option>
							<option value="dmy">{t('mapping.dayFirst')}</option>
						</NativeSelect>
					</Field>
					<div>
						<SubmitButton intent="map" label={t('mapping.submit')} pendingLabel={t('upload.submitting')} />
					</div>
					<ImportProgress token={token} intent="map" />
				</AppForm>
			</CardContent>
		</Card>
	)
}

/** The column mappings saved for other CSVs, each with Forget: the next such file asks again. */
function SavedMappings({ mappings }: { mappings: SavedMapping[] }) {
	const { t } = useTranslation(['imports', 'transactions'])
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('mappings.title')}</h2>
				</CardTitle>
				<CardDescription>{t('mappings.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<ul className="grid gap-3" aria-label={t('mappings.title')}>
					{mappings.map((m) => (
						<li key={m.signature} className="flex flex-wrap items-start justify-between gap-3 rounded-md border p-3 text-sm">
							<div className="grid min-w-0 gap-1">
								<p className="font-medium break-words">{m.columns.join(' · ')}</p>
								<p className="break-words text-muted-foreground">
									{t('mappings.summary', { date: m.date, amount: m.amount, payer: m.payer })} ·{' '}
									{t(m.dateOrder === 'dmy' ? 'mapping.dayFirst' : 'mapping.monthFirst')} · {t(`transactions:methods.${m.method}`)}
								</p>
							</div>
							<AppForm method="post">
								<input type="hidden" name="intent" value="forget-mapping" />
								<input type="hidden" name="signature" value={m.signature} />
								<Button type="submit" variant="outline" size="sm" aria-label={t('mappings.forgetLabel', { columns: m.columns.join(', ') })}>
									{t('mappings.forget')}
								</Button>
							</AppForm>
						</li>
					))}
				</ul>
			</CardContent>
		</Card>
	)
}
