import { useNavigation } from 'react-router'
import type { SampleReading } from '#app/.server/payments/email-sync/custom-rules.ts'
import type { ParsingRule } from '#app/.server/payments/email-sync/parsers/custom.ts'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { AlertCircleIcon, SaveIcon, ZapIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Alert, AlertDescription } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import {
	MAX_PARSING_RULES,
	MAX_SAMPLE_CHARS,
	type ParsingRuleErrors,
	type ParsingRuleField,
	type ParsingRuleFormText,
	type SampleField,
} from '#app/lib/schemas/parsing-rules.ts'
import { PAYMENT_METHODS, TRANSACTION_CATEGORIES } from '#app/lib/schemas/transactions.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

export type ParsingRuleFormOutcome =
	{ kind: 'errors'; errors: ParsingRuleErrors; reading: SampleReading | null } | { kind: 'tested'; reading: SampleReading }

/** The organization's rules, each with links that edit it and ask before deleting it. */
export function ParsingRuleList({ rules, path }: { rules: ParsingRule[]; path: string }) {
	const { t } = useTranslation(['parsing-rules', 'transactions'])
	return (
		<section aria-labelledby="parsing-rules-list" className="grid gap-3">
			<h2 id="parsing-rules-list" className="text-lg font-semibold">
				{t('list.heading')}
			</h2>
			<p className="text-sm text-muted-foreground">{t('list.limit', { count: rules.length, max: MAX_PARSING_RULES })}</p>
			{rules.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('list.empty')}</p>
			) : (
				<ul className="grid gap-3">
					{rules.map((rule) => (
						<li key={rule.id} className="flex flex-wrap items-start justify-between gap-3 rounded-md border p-3" data-testid="parsing-rule">
							<div className="grid min-w-0 gap-1 text-sm">
								<span className="font-medium">{rule.name}</span>
								<span className="font-mono text-xs break-all">{rule.sender}</span>
								{rule.subjectContains ? <span>{t('list.subject', { text: rule.subjectContains })}</span> : null}
								<span className="text-muted-foreground">
									{t('list.labels', { amount: rule.amountLabel, payer: rule.payerLabel })}
									{rule.idLabel ? ` · ${t('list.idLabel', { id: rule.idLabel })}` : ''}
								</span>
								<span className="text-muted-foreground">{t(`transactions:methods.${rule.paymentMethod}`)}</span>
							</div>
							<div className="flex gap-2">
								<Button asChild variant="outline" size="sm">
									<Link to={`${path}?edit=${rule.id}`} aria-label={t('list.editLabel', { name: rule.name })}>
										{t('list.edit')}
									</Link>
								</Button>
								<Button asChild variant="outline" size="sm">
									<Link to={`${path}?delete=${rule.id}`} aria-label={t('list.deleteLabel', { name: rule.name })}>
										{t('list.delete')}
									</Link>
								</Button>
							</div>
						</li>
					))}
				</ul>
			)}
		</section>
	)
}

/** What a rule read in the pasted sample: each field, or that it was not found. */
function SampleReadingView({ reading }: { reading: SampleReading }) {
	const { t } = useTranslation('parsing-rules')
	const fmt = useFormat()
	const row = (label: string, value: string | null, testId: string) => (
		<>
			<dt className="text-muted-foreground">{label}</dt>
			<dd data-testid={testId}>{value ?? <span className="text-destructive">{t('reading.notFound')}</span>}</dd>
		</>
	)
	return (
		<section
			role="status"
			aria-labelledby="parsing-rule-reading"
			className="grid gap-2 rounded-md border p-3"
			data-testid="parsing-rule-reading"
		>
			<h3 id="parsing-rule-reading" className="font-semibold">
				{t('reading.heading')}
			</h3>
			<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
				{row(t('reading.amount'), reading.amount ? fmt.money(reading.amount) : null, 'reading-amount')}
				{row(t('reading.payer'), reading.payer, 'reading-payer')}
				{row(t('reading.id'), reading.externalId, 'reading-id')}
				{row(t('reading.date'), fmt.date(reading.date), 'reading-date')}
			</dl>
			{reading.senderMatches === false ? <p className="text-sm text-destructive">{t('reading.senderMismatch')}</p> : null}
			{reading.subjectMatches === false ? <p className="text-sm text-destructive">{t('reading.subjectMismatch')}</p> : null}
			{reading.missing.length === 0 && reading.senderMatches !== false && reading.subjectMatches !== false ? (
				<p className="text-sm font-medium">{t('reading.ok')}</p>
			) : null}
		</section>
	)
}

/**
 * A rule's form (new, or the one being edited), with "Test on a sample": the sender, the subject
 * and the labels, the pasted sample, a test button that shows what the rule reads without saving,
 * and "Save" (refused, with the field named, when the rule cannot read a sample given). Works
 * without JavaScript: both buttons post the form; the answer comes back with what was typed.
 */
export function ParsingRuleForm({
	start,
	ruleId,
	outcome,
	path,
}: {
	start: ParsingRuleFormText
	ruleId: string | null
	outcome: ParsingRuleFormOutcome | undefined
	path: string
}) {
	const { t } = useTranslation(['parsing-rules', 'transactions'])
	const navigation = useNavigation()
	const posting = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
	const errors: ParsingRuleErrors = outcome?.kind === 'errors' ? outcome.errors : {}
	const reading = outcome?.reading ?? null
	const error = (field: ParsingRuleField | SampleField) => (errors[field] ? t(`errors.${errors[field]}`) : undefined)
	const describe = (field: ParsingRuleField | SampleField, hint?: boolean) =>
		[errors[field] ? `parsing-rule-${field}-error` : null, hint ? `parsing-rule-${field}-hint` : null].filter(Boolean).join(' ') ||
		undefined
	const input = (field: ParsingRuleField | SampleField, props: React.ComponentProps<typeof Input> = {}, hint = false) => (
		<Input
			id={`parsing-rule-${field}`}
			name={field}
			defaultValue={start[field]}
			aria-invalid={errors[field] ? true : undefined}
			aria-describedby={describe(field, hint)}
			{...props}
		/>
	)
	const field = (name: ParsingRuleField | SampleField, label: string, control: React.ReactNode, hint?: string) => (
		<div className="grid gap-1">
			<Field label={label} htmlFor={`parsing-rule-${name}`} errorId={`parsing-rule-${name}-error`} error={error(name)}>
				{control}
			</Field>
			{hint ? (
				<p id={`parsing-rule-${name}-hint`} className="text-xs text-muted-foreground">
					{hint}
				</p>
			) : null}
		</div>
	)
	const select = (name: 'paymentMethod' | 'defaultCategory', options: Array<[string, string]>) => (
		<NativeSelect
			id={`parsing-rule-${name}`}
			name={name}
			defaultValue={start[name]}
			className="w-full"
			aria-invalid={errors[name] ? true : undefined}
			aria-describedby={describe(name)}
		>
			{options.map(([value, text]) => (
				<option key={value} value={value}>
					{text}
				</option>
			))}
		</NativeSelect>
	)
	return (
		<section aria-labelledby="parsing-rule-form-heading" className="grid gap-3 rounded-md border p-4">
			<h2 id="parsing-rule-form-heading" className="text-lg font-semibold">
				{ruleId ? t('form.editHeading') : t('form.heading')}
			</h2>
			<AppForm method="post" action={ruleId ? `${path}?edit=${ruleId}` : path} className="grid gap-4">
				<button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true" />
				{ruleId ? <input type="hidden" name="ruleId" value={ruleId} /> : null}
				{field('name', t('form.name'), input('name', { maxLength: 100 }))}
				<fieldset className="grid gap-4 sm:grid-cols-2">
					<legend className="mb-2 text-sm font-medium">{t('form.matchLegend')}</legend>
					{field('sender', t('form.sender'), input('sender', { maxLength: 254, autoComplete: 'off' }, true), t('form.senderHint'))}
					{field('subjectContains', t('form.subject'), input('subjectContains', { maxLength: 200 }, true), t('form.subjectHint'))}
				</fieldset>
				<fieldset className="grid gap-4 sm:grid-cols-3">
					<legend className="mb-2 text-sm font-medium">{t('form.labelsLegend')}</legend>
					<p className="text-xs text-muted-foreground sm:col-span-3">{t('form.labelsHint')}</p>
					{field('amountLabel', t('form.amountLabel'), input('amountLabel', { maxLength: 100, placeholder: t('form.amountPlaceholder') }))}
					{field('payerLabel', t('form.payerLabel'), input('payerLabel', { maxLength: 100, placeholder: t('form.payerPlaceholder') }))}
					{field('idLabel', t('form.idLabel'), input('idLabel', { maxLength: 100, placeholder: t('form.idPlaceholder') }))}
				</fieldset>
				<div className="grid gap-4 sm:grid-cols-2">
					{field(
						'paymentMethod',
						t('form.method'),
						select(
							'paymentMethod',
							PAYMENT_METHODS.map((m) => [m, t(`transactions:methods.${m}`)]),
						),
					)}
					{field(
						'defaultCategory',
						t('form.category'),
						select('defaultCategory', [
							['', t('form.noCategory')],
							...TRANSACTION_CATEGORIES.map((c): [string, string] => [c, t(`categories.${c}`)]),
						]),
						t('form.categoryHint'),
					)}
				</div>
				<fieldset className="grid gap-4 sm:grid-cols-2">
					<legend className="mb-2 text-sm font-medium">{t('form.sampleLegend')}</legend>
					<p className="text-xs text-muted-foreground sm:col-span-2">{t('form.sampleHint', { max: MAX_SAMPLE_CHARS / 1000 })}</p>
					{field('sampleFrom', t('form.sampleFrom'), input('sampleFrom', { maxLength: 254, autoComplete: 'off' }))}
					{field('sampleSubject', t('form.sampleSubject'), input('sampleSubject', { maxLength: 1000 }))}
					<div className="sm:col-span-2">
						{field(
							'sample',
							t('form.sample'),
							<Textarea
								id="parsing-rule-sample"
								name="sample"
								rows={8}
								defaultValue={start.sample}
								className="font-mono text-xs"
								aria-invalid={errors.sample ? true : undefined}
								aria-describedby={describe('sample')}
							/>,
						)}
					</div>
				</fieldset>
				{reading ? <SampleReadingView reading={reading} /> : null}
				{errors.form ? (
					<Alert variant="destructive" id="parsing-rule-form-error">
						<AlertCircleIcon />
						<AlertDescription>{t(`errors.${errors.form}`)}</AlertDescription>
					</Alert>
				) : null}
				<div className="flex flex-wrap gap-2">
					<Button type="submit" name="intent" value="test" variant="outline" disabled={posting != null}>
						{posting === 'test' ? <Spinner aria-label={t('form.testing')} /> : <ZapIcon aria-hidden="true" />}
						{posting === 'test' ? t('form.testing') : t('form.test')}
					</Button>
					<Button type="submit" name="intent" value="save" disabled={posting != null}>
						{posting === 'save' ? <Spinner aria-label={t('form.saving')} /> : <SaveIcon aria-hidden="true" />}
						{posting === 'save' ? t('form.saving') : t('form.save')}
					</Button>
					{ruleId ? (
						<Button asChild variant="outline">
							<Link to={path}>{t('form.cancelEdit')}</Link>
						</Button>
					) : null}
				</div>
			</AppForm>
		</section>
	)
}
