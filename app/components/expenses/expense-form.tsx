import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useNavigation } from 'react-router'
import type { z } from 'zod'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { useErrorText } from '#app/components/data-table/editable-table.tsx'
import { useCategoryOptions, useRailOptions } from '#app/components/expenses/expense-rows-form.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { FileTextIcon, SaveIcon, Trash2Icon } from '#app/components/icons.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { expenseEditSchemaIn, type ExpenseEditValues } from '#app/lib/schemas/expenses.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

type FormInput = z.input<ReturnType<typeof expenseEditSchemaIn>>

/** An expense as its edit form starts: amounts in dot form ('12.50'), the date 'YYYY-MM-DD'. */
export type ExpenseFormStart = {
	id: string
	kind: 'expense' | 'refund'
	version: string
	spentOn: string
	vendor: string
	amount: string
	category: string
	paymentMethod: string
	note: string
	hasReceipt: boolean
	importSource: string | null
}

/**
 * One expense's edit form (docs/product.md, Expense Tracking): its fields, and its receipt (a
 * photo or a PDF, replaced or removed) in the same multipart post; wrong fields or a refused
 * receipt come back with what was typed and a translated message, and nothing is saved.
 */
export function ExpenseForm({ start, result }: { start: ExpenseFormStart; result: SubmissionResult<string[]> | undefined }) {
	const { t, i18n } = useTranslation('expenses')
	const fmt = useFormat()
	const errorText = useErrorText('expenses')
	const schema = expenseEditSchemaIn(i18n.language)
	const categories = useCategoryOptions()
	const rails = useRailOptions()
	const [form, fields] = useForm<FormInput & { receipt?: unknown }, ExpenseEditValues>({
		id: 'expense-edit',
		lastResult: result,
		defaultValue: { ...start, amount: fmt.editableAmount(start.amount) },
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
	})
	const error = (field: { errors?: string[] }) => errorText(field.errors?.[0])
	const navigation = useNavigation()
	const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save'
	return (
		<AppForm method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid min-w-0 grid-cols-1 gap-6">
			<button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true" />
			<input {...getInputProps(fields.version, { type: 'hidden' })} />
			<fieldset className="grid gap-4 sm:grid-cols-2">
				<legend className="sr-only">{t('form.details')}</legend>
				<Field label={t('columns.date')} htmlFor={fields.spentOn.id} errorId={fields.spentOn.errorId} error={error(fields.spentOn)}>
					<Input {...getInputProps(fields.spentOn, { type: 'date' })} />
				</Field>
				<Field
					label={start.kind === 'refund' ? t('columns.payee') : t('columns.vendor')}
					htmlFor={fields.vendor.id}
					errorId={fields.vendor.errorId}
					error={error(fields.vendor)}
				>
					<Input {...getInputProps(fields.vendor, { type: 'text' })} maxLength={200} />
				</Field>
				<Field label={t('columns.amount')} htmlFor={fields.amount.id} errorId={fields.amount.errorId} error={error(fields.amount)}>
					<Input {...getInputProps(fields.amount, { type: 'text' })} inputMode="decimal" />
				</Field>
				<Field label={t('columns.category')} htmlFor={fields.category.id} errorId={fields.category.errorId} error={error(fields.category)}>
					<NativeSelect {...getSelectProps(fields.category)} className="w-full">
						{categories.map(([value, text]) => (
							<option key={value} value={value}>
								{text}
							</option>
						))}
					</NativeSelect>
				</Field>
				<Field
					label={t('columns.rail')}
					htmlFor={fields.paymentMethod.id}
					errorId={fields.paymentMethod.errorId}
					error={error(fields.paymentMethod)}
				>
					<NativeSelect {...getSelectProps(fields.paymentMethod)} className="w-full">
						{rails.map(([value, text]) => (
							<option key={value} value={value}>
								{text}
							</option>
						))}
					</NativeSelect>
				</Field>
				<Field label={t('columns.note')} htmlFor={fields.note.id} errorId={fields.note.errorId} error={error(fields.note)}>
					<Textarea {...getTextareaProps(fields.note)} rows={2} maxLength={2000} />
				</Field>
			</fieldset>
			<fieldset className="grid gap-3 rounded-md border p-4">
				<legend className="px-1 font-semibold">{t('form.receipt')}</legend>
				{start.hasReceipt ? (
					<div className="flex flex-wrap items-center gap-4">
						<a
							href={`/app/expenses/${start.id}/receipt`}
							target="_blank"
							rel="noreferrer"
							className="inline-flex min-h-11 items-center gap-1 text-primary underline-offset-4 hover:underline sm:min-h-0"
						>
							<FileTextIcon className="size-4" aria-hidden="true" />
							{t('form.currentReceipt')}
						</a>
						<label className="inline-flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
							<input {...getInputProps(fields.removeReceipt, { type: 'checkbox' })} value="on" className="size-4" />
							{t('form.removeReceipt')}
						</label>
					</div>
				) : null}
				<Field
					label={start.hasReceipt ? t('form.replaceReceipt') : t('form.receipt')}
					htmlFor="expense-receipt"
					errorId="expense-receipt-error"
					error={error(fields.receipt as { errors?: string[] })}
				>
					<Input
						id="expense-receipt"
						name="receipt"
						type="file"
						accept="image/jpeg,image/png,image/webp,application/pdf"
						aria-describedby="expense-receipt-hint"
						aria-invalid={fields.receipt?.errors ? true : undefined}
					/>
					<p id="expense-receipt-hint" className="text-xs text-muted-foreground">
						{t('form.receiptHint')}
					</p>
				</Field>
			</fieldset>
			<div>
				<Button type="submit" name="intent" value="save" disabled={saving}>
					{saving ? <Spinner aria-label={t('form.saving')} /> : <SaveIcon aria-hidden="true" />}
					{saving ? t('form.saving') : t('form.save')}
				</Button>
			</div>
		</AppForm>
	)
}

/**
 * Deleting the expense asks first, without JavaScript too: the question opens under the button
 * (a native disclosure) and its own button posts the deletion.
 */
export function DeleteExpense() {
	const { t } = useTranslation('expenses')
	const navigation = useNavigation()
	const deleting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete'
	return (
		<details className="grid gap-2">
			<summary className="inline-flex min-h-11 w-fit cursor-pointer items-center gap-1 text-sm text-destructive sm:min-h-0">
				<Trash2Icon className="size-4" aria-hidden="true" />
				{t('form.delete')}
			</summary>
			<AppForm method="post" className="mt-2 grid gap-2 rounded-md border border-destructive/40 p-4">
				<p className="text-sm">{t('form.deleteQuestion')}</p>
				<Button type="submit" name="intent" value="delete" variant="destructive" className="w-fit" disabled={deleting}>
					{deleting ? <Spinner aria-label={t('form.deleting')} /> : <Trash2Icon aria-hidden="true" />}
					{deleting ? t('form.deleting') : t('form.delete')}
				</Button>
			</AppForm>
		</details>
	)
}
