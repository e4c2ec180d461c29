import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useNavigation } from 'react-router'
import type { z } from 'zod'
import { SelectCell, TextCell, useErrorText, type CellField } from '#app/components/data-table/editable-table.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { PlusIcon, SaveIcon, XIcon } from '#app/components/icons.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import {
	EXPENSE_CATEGORIES,
	expenseAddSchemaIn,
	MAX_EXPENSE_ROWS,
	type ExpenseAddValues,
	type ExpenseRowText,
} from '#app/lib/schemas/expenses.ts'
import { PAYMENT_METHODS } from '#app/lib/schemas/transactions.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

type FormInput = z.input<ReturnType<typeof expenseAddSchemaIn>>

/** The category options, translated. */
export function useCategoryOptions() {
	const { t } = useTranslation('expenses')
	return EXPENSE_CATEGORIES.map((c) => [c, t(`categories.${c}`)] as const)
}

/** The rail options, translated, with "Not said" first. */
export function useRailOptions() {
	const { t } = useTranslation(['expenses', 'transactions'])
	return [['', t('railNone')] as const, ...PAYMENT_METHODS.map((m) => [m, t(`transactions:methods.${m}`)] as const)]
}

/**
 * Several expenses typed at once (docs/product.md, Expense Tracking), in the editable-table kit's
 * cells (its phone cards, its cell errors): date, vendor, amount, category, rail and note per row.
 * A plain post: "Add a row" and a row's remove button are conform's list intents, answered by the
 * server with what was typed kept, so the form works without JavaScript; a wrong field is shown
 * under its cell, translated, and nothing is saved until every filled row is right.
 */
export function ExpenseRowsForm({
	start,
	blank,
	result,
}: {
	start: ExpenseRowText[]
	blank: ExpenseRowText
	result: SubmissionResult<string[]> | undefined
}) {
	const { t, i18n } = useTranslation('expenses')
	const errorText = useErrorText('expenses')
	const schema = expenseAddSchemaIn(i18n.language)
	const categories = useCategoryOptions()
	const rails = useRailOptions()
	const [form, fields] = useForm<FormInput, ExpenseAddValues>({
		id: 'expense-rows',
		lastResult: result,
		defaultValue: { rows: start },
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
	})
	const rows = fields.rows.getFieldList()
	const navigation = useNavigation()
	const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save'
	const label = {
		date: t('columns.date'),
		vendor: t('columns.vendor'),
		amount: t('columns.amount'),
		category: t('columns.category'),
		rail: t('columns.rail'),
		note: t('columns.note'),
	}
	return (
		<AppForm method="post" {...getFormProps(form)} className="grid min-w-0 grid-cols-1 gap-4">
			{/* What Enter presses without JavaScript: the rows are saved. */}
			<button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true" />
			<section aria-labelledby="expense-rows-title" className="grid min-w-0 gap-3">
				<h2 id="expense-rows-title" className="text-lg font-semibold">
					{t('rows.title')}
				</h2>
				<p className="text-sm text-muted-foreground">{t('rows.hint')}</p>
				{fields.rows.errors?.[0] ? (
					<p id={fields.rows.errorId} className="text-sm text-destructive" role="alert">
						{errorText(fields.rows.errors[0])}
					</p>
				) : null}
				<div className="rounded-md border">
					<Table cards={[label.date, label.vendor, label.amount, label.category, label.rail, label.note, null]} data-editing="">
						<caption className="sr-only">{t('rows.caption')}</caption>
						<TableHeader>
							<TableRow>
								<TableHead className="w-40">{label.date}</TableHead>
								<TableHead className="min-w-44">{label.vendor}</TableHead>
								<TableHead className="w-32">{label.amount}</TableHead>
								<TableHead className="w-40">{label.category}</TableHead>
								<TableHead className="w-36">{label.rail}</TableHead>
								<TableHead className="min-w-40">{label.note}</TableHead>
								<TableHead className="w-12">
									<span className="sr-only">{t('columns.actions')}</span>
								</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{rows.map((row, index) => {
								const f = row.getFieldset()
								const n = index + 1
								const cell = (field: unknown) => field as CellField
								const of = (field: string) => t('rows.fieldOfRow', { field, n })
								return (
									<TableRow key={row.key}>
										<TextCell field={cell(f.spentOn)} label={of(label.date)} errorText={errorText} type="date" card="meta" />
										<TextCell field={cell(f.vendor)} label={of(label.vendor)} errorText={errorText} card="title" maxLength={200} />
										<TextCell
											field={cell(f.amount)}
											label={of(label.amount)}
											errorText={errorText}
											card="meta"
											inputMode="decimal"
											className="text-right tabular-nums"
										/>
										<SelectCell
											field={cell(f.category)}
											label={of(label.category)}
											errorText={errorText}
											options={categories}
											card="meta"
										/>
										<SelectCell field={cell(f.paymentMethod)} label={of(label.rail)} errorText={errorText} options={rails} card="meta" />
										<TextCell field={cell(f.note)} label={of(label.note)} errorText={errorText} card="wide" maxLength={2000} />
										<TableCell className="align-top card-actions">
											<Button
												variant="ghost"
												size="sm"
												{...form.remove.getButtonProps({ name: fields.rows.name, index })}
												aria-label={t('rows.remove', { n })}
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
					disabled={rows.length >= MAX_EXPENSE_ROWS}
					{...form.insert.getButtonProps({ name: fields.rows.name, defaultValue: blank })}
				>
					<PlusIcon aria-hidden="true" />
					{t('rows.add')}
				</Button>
			</section>
			<div>
				<Button type="submit" name="intent" value="save" disabled={saving}>
					{saving ? <Spinner aria-label={t('rows.saving')} /> : <SaveIcon aria-hidden="true" />}
					{saving ? t('rows.saving') : t('rows.save')}
				</Button>
			</div>
		</AppForm>
	)
}
