import { useNavigation } from 'react-router'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { AlertCircleIcon, InfoIcon, SaveIcon, ZapIcon } from '#app/components/icons.tsx'
import { Alert, AlertDescription } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import type { RuleField, RuleFormText } from '#app/lib/schemas/rules.ts'
import { RULE_SOURCES } from '#app/lib/schemas/rules.ts'
import { PAYMENT_METHODS, TRANSACTION_CATEGORIES } from '#app/lib/schemas/transactions.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

export type RuleFormOutcome =
	{ kind: 'errors'; errors: Partial<Record<string, string>> } | { kind: 'preview'; count: number } | { kind: 'saved'; id: string }

type Choice = { id: string; name: string }

/**
 * The new rule's form (docs/product.md, Rules): conditions, actions, a "test against past payments"
 * button that answers "would match N" without saving, and "save". Works without JavaScript: both
 * buttons post the form; the answer comes back with what was typed.
 */
export function RuleForm({
	start,
	outcome,
	choices,
	learnedPayer,
}: {
	start: RuleFormText
	outcome: RuleFormOutcome | undefined
	choices: { clients: Choice[]; members: Choice[] }
	learnedPayer: string | null
}) {
	const { t } = useTranslation(['rules', 'transactions'])
	const navigation = useNavigation()
	const posting = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
	const errors = outcome?.kind === 'errors' ? outcome.errors : {}
	const error = (field: RuleField) => (errors[field] ? t(`errors.${errors[field]}`) : undefined)
	const input = (field: RuleField, props: React.ComponentProps<typeof Input> = {}) => (
		<Input
			id={`rule-${field}`}
			name={field}
			defaultValue={start[field]}
			aria-invalid={errors[field] ? true : undefined}
			aria-describedby={errors[field] ? `rule-${field}-error` : undefined}
			{...props}
		/>
	)
	const select = (field: RuleField, empty: string, options: Array<[string, string]>) => (
		<NativeSelect
			id={`rule-${field}`}
			name={field}
			defaultValue={start[field]}
			className="w-full"
			aria-invalid={errors[field] ? true : undefined}
			aria-describedby={errors[field] ? `rule-${field}-error` : undefined}
		>
			<option value="">{empty}</option>
			{options.map(([value, text]) => (
				<option key={value} value={value}>
					{text}
				</option>
			))}
		</NativeSelect>
	)
	const field = (name: RuleField, label: string, control: React.ReactNode) => (
		<Field label={label} htmlFor={`rule-${name}`} errorId={`rule-${name}-error`} error={error(name)}>
			{control}
		</Field>
	)
	return (
		<section aria-labelledby="rule-form-heading" className="grid gap-3 rounded-md border p-4">
			<h2 id="rule-form-heading" className="text-lg font-semibold">
				{t('form.heading')}
			</h2>
			{learnedPayer ? (
				<Alert>
					<InfoIcon />
					<AlertDescription>{t('form.learned', { payer: learnedPayer })}</AlertDescription>
				</Alert>
			) : null}
			<AppForm method="post" className="grid gap-4">
				<button type="submit" name="intent" value="create" className="sr-only" tabIndex={-1} aria-hidden="true" />
				{field('name', t('form.name'), input('name', { maxLength: 100 }))}
				<fieldset className="grid gap-4 sm:grid-cols-2">
					<legend className="mb-2 text-sm font-medium">{t('form.conditionsLegend')}</legend>
					<div className="grid gap-1">
						{field('payer', t('form.payer'), input('payer', { maxLength: 200 }))}
						<p className="text-xs text-muted-foreground">{t('form.payerHint')}</p>
					</div>
					{field('memoContains', t('form.memo'), input('memoContains', { maxLength: 200 }))}
					{field('amountMin', t('form.amountMin'), input('amountMin', { inputMode: 'decimal' }))}
					{field('amountMax', t('form.amountMax'), input('amountMax', { inputMode: 'decimal' }))}
					{field(
						'paymentMethod',
						t('form.method'),
						select(
							'paymentMethod',
							t('form.any'),
							PAYMENT_METHODS.map((m) => [m, t(`transactions:methods.${m}`)]),
						),
					)}
					{field(
						'source',
						t('form.source'),
						select(
							'source',
							t('form.any'),
							RULE_SOURCES.map((s) => [s, t(`sources.${s}`)]),
						),
					)}
				</fieldset>
				<fieldset className="grid gap-4 sm:grid-cols-2">
					<legend className="mb-2 text-sm font-medium">{t('form.actionsLegend')}</legend>
					{field(
						'setCategory',
						t('form.setCategory'),
						select(
							'setCategory',
							t('form.noChange'),
							TRANSACTION_CATEGORIES.map((c) => [c, t(`categories.${c}`)]),
						),
					)}
					{field(
						'setClientId',
						t('form.setClient'),
						select(
							'setClientId',
							t('form.noChange'),
							choices.clients.map((c) => [c.id, c.name]),
						),
					)}
					{field('addTag', t('form.addTag'), input('addTag', { maxLength: 40 }))}
					{field(
						'notifyUserId',
						t('form.notify'),
						select(
							'notifyUserId',
							t('form.nobody'),
							choices.members.map((m) => [m.id, m.name]),
						),
					)}
					<label className="inline-flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
						<input type="checkbox" name="hold" value="on" defaultChecked={start.hold === 'on'} className="size-4" />
						{t('form.hold')}
					</label>
				</fieldset>
				{errors.form ? (
					<Alert variant="destructive" id="rule-form-error">
						<AlertCircleIcon />
						<AlertDescription>{t(`errors.${errors.form}`)}</AlertDescription>
					</Alert>
				) : null}
				{outcome?.kind === 'preview' ? (
					<p role="status" className="text-sm font-medium" data-testid="rule-preview">
						{t('form.wouldMatch', { count: outcome.count })}
					</p>
				) : null}
				<div className="flex flex-wrap gap-2">
					<Button type="submit" name="intent" value="preview" variant="outline" disabled={posting != null}>
						{posting === 'preview' ? <Spinner aria-label={t('form.previewing')} /> : <ZapIcon aria-hidden="true" />}
						{posting === 'preview' ? t('form.previewing') : t('form.preview')}
					</Button>
					<Button type="submit" name="intent" value="create" disabled={posting != null}>
						{posting === 'create' ? <Spinner aria-label={t('form.saving')} /> : <SaveIcon aria-hidden="true" />}
						{posting === 'create' ? t('form.saving') : t('form.save')}
					</Button>
				</div>
			</AppForm>
		</section>
	)
}
