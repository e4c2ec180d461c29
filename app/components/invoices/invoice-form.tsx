import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useNavigation } from 'react-router'
import type { z } from 'zod'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { TextCell, useErrorText, type CellField } from '#app/components/data-table/editable-table.tsx'
import { ClientOptions } from '#app/components/data-table/transaction-cells.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { MailIcon, PlusIcon, SaveIcon, XIcon } from '#app/components/icons.tsx'
import { Alert, AlertTitle } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { languageNames, supportedLanguages } from '#app/lib/i18n.ts'
import { invoiceTotals, MAX_INVOICE_LINES } from '#app/lib/invoices.ts'
import type { ClientChoice } from '#app/lib/schemas/clients.ts'
import { groupsThousandsWithDots } from '#app/lib/schemas/fields.ts'
import { BLANK_LINE, invoiceDraftSchemaIn, parseQuantity, parseTaxRate, type InvoiceDraftValues } from '#app/lib/schemas/invoices.ts'
import { parseAmount } from '#app/lib/schemas/transactions.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { cn } from '#app/lib/utils.ts'

/** A draft's values as the form starts with them: amounts in dot form ('1234.50'), dates 'YYYY-MM-DD'. */
export type InvoiceFormStart = {
	version: string
	clientId: string
	client: string
	language: string
	issueDate: string
	dueDate: string
	discount: string
	taxRate: string
	notes: string
	lines: Array<{ description: string; quantity: string; unitPrice: string }>
}

type FormInput = z.input<ReturnType<typeof invoiceDraftSchemaIn>>

const CLIENT_LIST = 'invoice-clients'

/**
 * The draft form (docs/product.md, Invoicing): client (the organization's clients as suggestions,
 * a native datalist, as the tables' client cells), language, dates, the lines in the
 * editable-table kit's cells (its phone cards, its cell errors), discount, tax and notes, with the
 * totals previewed as the database will compute them. A plain post: "Add a line" and a line's
 * remove button are conform's list intents, answered by the server with the typed values kept, so
 * the whole form works without JavaScript; with it, the same schema checks each field as it is left.
 */
export function InvoiceForm({
	start,
	choices,
	result,
	refusal,
}: {
	start: InvoiceFormStart
	choices: ClientChoice[]
	result: SubmissionResult<string[]> | undefined
	/** A refusal of the last save that is no field's (invoices:refusals.*). */
	refusal?: string
}) {
	const { t, i18n } = useTranslation('invoices')
	const fmt = useFormat()
	const errorText = useErrorText('invoices')
	const schema = invoiceDraftSchemaIn(i18n.language)
	const editable = (value: string) => (value ? fmt.editableAmount(value) : '')
	const [form, fields] = useForm<FormInput, InvoiceDraftValues>({
		id: 'invoice-draft',
		lastResult: result,
		defaultValue: {
			...start,
			discount: editable(start.discount),
			taxRate: editable(start.taxRate),
			lines: start.lines.map((l) => ({ ...l, quantity: editable(l.quantity), unitPrice: editable(l.unitPrice) })),
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
	})
	const lines = fields.lines.getFieldList()
	const error = (field: { errors?: string[] }) => errorText(field.errors?.[0])
	const totals = usePreview(
		lines.map((l) => {
			const f = l.getFieldset()
			return { quantity: f.quantity.value, unitPrice: f.unitPrice.value }
		}),
		fields.discount.value,
		fields.taxRate.value,
	)
	const label = {
		description: t('lines.description'),
		quantity: t('lines.quantity'),
		unitPrice: t('lines.unitPrice'),
		amount: t('lines.amount'),
	}
	return (
		<AppForm method="post" {...getFormProps(form)} className="grid min-w-0 grid-cols-1 gap-6">
			{/* What Enter presses without JavaScript: the draft is saved. */}
			<button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true" />
			<input {...getInputProps(fields.version, { type: 'hidden' })} />
			<input {...getInputProps(fields.clientId, { type: 'hidden' })} />
			{refusal ? (
				<Alert variant="destructive">
					<AlertTitle>{t(`refusals.${refusal}`)}</AlertTitle>
				</Alert>
			) : null}
			<fieldset className="grid gap-4 sm:grid-cols-2">
				<legend className="sr-only">{t('form.details')}</legend>
				<Field label={t('form.client')} htmlFor={fields.client.id} errorId={fields.client.errorId} error={error(fields.client)}>
					<Input
						{...getInputProps(fields.client, { type: 'text' })}
						list={CLIENT_LIST}
						autoComplete="off"
						placeholder={t('form.clientPlaceholder')}
					/>
					<p className="text-xs text-muted-foreground">{t('form.clientHint')}</p>
				</Field>
				<Field label={t('form.language')} htmlFor={fields.language.id} errorId={fields.language.errorId} error={error(fields.language)}>
					<NativeSelect {...getSelectProps(fields.language)} className="w-full">
						{supportedLanguages.map((lng) => (
							<option key={lng} value={lng}>
								{languageNames[lng]}
							</option>
						))}
					</NativeSelect>
					<p className="text-xs text-muted-foreground">{t('form.languageHint')}</p>
				</Field>
				<Field label={t('form.issueDate')} htmlFor={fields.issueDate.id} errorId={fields.issueDate.errorId} error={error(fields.issueDate)}>
					<Input {...getInputProps(fields.issueDate, { type: 'date' })} />
				</Field>
				<Field label={t('form.dueDate')} htmlFor={fields.dueDate.id} errorId={fields.dueDate.errorId} error={error(fields.dueDate)}>
					<Input {...getInputProps(fields.dueDate, { type: 'date' })} />
				</Field>
			</fieldset>
			<ClientOptions id={CLIENT_LIST} choices={choices} />

			<section aria-labelledby="invoice-lines" className="grid min-w-0 gap-3">
				<h2 id="invoice-lines" className="text-lg font-semibold">
					{t('lines.title')}
				</h2>
				{fields.lines.errors?.[0] ? (
					<p id={fields.lines.errorId} className="text-sm text-destructive">
						{errorText(fields.lines.errors[0])}
					</p>
				) : null}
				<div className="rounded-md border">
					<Table cards={[label.description, label.quantity, label.unitPrice, label.amount, null]} data-editing="">
						<caption className="sr-only">{t('lines.caption')}</caption>
						<TableHeader>
							<TableRow>
								<TableHead className="min-w-56">{label.description}</TableHead>
								<TableHead className="w-28">{label.quantity}</TableHead>
								<TableHead className="w-36">{label.unitPrice}</TableHead>
								<TableHead className="w-32 text-right">{label.amount}</TableHead>
								<TableHead className="w-12">
									<span className="sr-only">{t('lines.actions')}</span>
								</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{lines.map((line, index) => {
								const f = line.getFieldset()
								const n = index + 1
								const cell = (field: unknown) => field as CellField
								return (
									<TableRow key={line.key}>
										<TextCell
											field={cell(f.description)}
											label={t('lines.fieldOfLine', { field: label.description, n })}
											errorText={errorText}
											card="wide"
											maxLength={500}
										/>
										<TextCell
											field={cell(f.quantity)}
											label={t('lines.fieldOfLine', { field: label.quantity, n })}
											errorText={errorText}
											card="meta"
											inputMode="decimal"
											className="text-right tabular-nums"
										/>
										<TextCell
											field={cell(f.unitPrice)}
											label={t('lines.fieldOfLine', { field: label.unitPrice, n })}
											errorText={errorText}
											card="meta"
											inputMode="decimal"
											className="text-right tabular-nums"
										/>
										<TableCell className="text-right align-top tabular-nums card-title">
											<output className="inline-block pt-2" aria-label={t('lines.fieldOfLine', { field: label.amount, n })}>
												{totals.lines[index] === null ? '—' : fmt.money(totals.lines[index])}
											</output>
										</TableCell>
										<TableCell className="align-top card-actions">
											<Button
												variant="ghost"
												size="sm"
												{...form.remove.getButtonProps({ name: fields.lines.name, index })}
												aria-label={t('lines.remove', { n })}
											>
												<XIcon aria-hidden="true" />
											</Button>
										</TableCell>
									</TableRow>
								)
							})}
						</TableBody>
					</Table>
				</div>
				<Button
					variant="outline"
					className="w-fit"
					disabled={lines.length >= MAX_INVOICE_LINES}
					{...form.insert.getButtonProps({ name: fields.lines.name, defaultValue: BLANK_LINE })}
				>
					<PlusIcon aria-hidden="true" />
					{t('lines.add')}
				</Button>
			</section>

			<div className="grid gap-6 md:grid-cols-2">
				<fieldset className="grid content-start gap-4">
					<legend className="sr-only">{t('form.adjustments')}</legend>
					<div className="grid gap-4 sm:grid-cols-2">
						<Field label={t('form.discount')} htmlFor={fields.discount.id} errorId={fields.discount.errorId} error={error(fields.discount)}>
							<Input {...getInputProps(fields.discount, { type: 'text' })} inputMode="decimal" placeholder="0" />
						</Field>
						<Field label={t('form.taxRate')} htmlFor={fields.taxRate.id} errorId={fields.taxRate.errorId} error={error(fields.taxRate)}>
							<Input {...getInputProps(fields.taxRate, { type: 'text' })} inputMode="decimal" placeholder="0" />
						</Field>
					</div>
					<Field label={t('form.notes')} htmlFor={fields.notes.id} errorId={fields.notes.errorId} error={error(fields.notes)}>
						<Textarea {...getTextareaProps(fields.notes)} rows={3} maxLength={2000} />
					</Field>
				</fieldset>
				<Totals totals={totals} taxRate={fields.taxRate.value} />
			</div>

			<div className="flex flex-wrap items-center gap-2">
				<IntentButton intent="save" label={t('form.save')} pendingLabel={t('form.saving')} icon={<SaveIcon aria-hidden="true" />} />
				<IntentButton
					intent="send"
					label={t('form.saveAndSend')}
					pendingLabel={t('form.sending')}
					icon={<MailIcon aria-hidden="true" />}
					variant="outline"
				/>
				<p className="text-sm text-muted-foreground">{t('form.sendHint')}</p>
			</div>
		</AppForm>
	)
}

/** A submit button that posts its intent, with a spinner while that intent is on its way. */
function IntentButton({
	intent,
	label,
	pendingLabel,
	icon,
	variant,
}: {
	intent: string
	label: string
	pendingLabel: string
	icon: React.ReactNode
	variant?: 'outline'
}) {
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
	return (
		<Button type="submit" name="intent" value={intent} variant={variant} disabled={pending}>
			{pending ? <Spinner aria-label={pendingLabel} /> : icon}
			{pending ? pendingLabel : label}
		</Button>
	)
}

/** The totals of the figures as typed, in the page's language: a figure that does not read counts as 0. */
function usePreview(lines: Array<{ quantity?: string; unitPrice?: string }>, discount?: string, taxRate?: string) {
	const { i18n } = useTranslation()
	const dotGroups = groupsThousandsWithDots(i18n.language)
	const read = (parsed: { ok: true; value: string } | { ok: false }) => (parsed.ok ? parsed.value : null)
	const readLines = lines.map((l) => ({
		quantity: l.quantity ? read(parseQuantity(l.quantity, { dotGroups })) : null,
		unitPrice: l.unitPrice ? read(parseAmount(l.unitPrice, { dotGroups })) : null,
	}))
	const totals = invoiceTotals({
		lines: readLines.map((l) => ({ quantity: l.quantity ?? '0', unitPrice: l.unitPrice ?? '0' })),
		discount: (discount && read(parseAmount(discount, { dotGroups }))) || '0',
		taxRate: (taxRate && read(parseTaxRate(taxRate, { dotGroups }))) || '0',
	})
	return { ...totals, lines: totals.lines.map((amount, i) => (readLines[i]!.quantity && readLines[i]!.unitPrice ? amount : null)) }
}

/** The subtotal, discount, tax and total, as the draft will be saved. */
function Totals({ totals, taxRate }: { totals: ReturnType<typeof usePreview>; taxRate: string | undefined }) {
	const { t, i18n } = useTranslation('invoices')
	const fmt = useFormat()
	const rate = taxRate ? parseTaxRate(taxRate, { dotGroups: groupsThousandsWithDots(i18n.language) }) : null
	return (
		<section aria-labelledby="invoice-totals" className="grid content-start gap-2 rounded-md border p-4">
			<h2 id="invoice-totals" className="font-semibold">
				{t('totals.title')}
			</h2>
			<dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm tabular-nums" aria-live="polite">
				<dt>{t('totals.subtotal')}</dt>
				<dd className="text-right">{fmt.money(totals.subtotal)}</dd>
				<dt>{t('totals.discount')}</dt>
				<dd className="text-right">{Number(totals.discount) > 0 ? `−${fmt.money(totals.discount)}` : fmt.money(0)}</dd>
				<dt>{t('totals.tax', { rate: rate?.ok ? fmt.number(Number(rate.value)) : fmt.number(0) })}</dt>
				<dd className="text-right">{fmt.money(totals.tax)}</dd>
				<dt className={cn('border-t pt-1 font-semibold')}>{t('totals.total')}</dt>
				<dd className="border-t pt-1 text-right font-semibold" data-testid="invoice-total">
					{fmt.money(totals.total)}
				</dd>
			</dl>
		</section>
	)
}
