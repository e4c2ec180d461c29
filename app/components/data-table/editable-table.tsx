import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Trash2Icon, XIcon } from '#app/components/icons.tsx'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useLocation, useNavigation, useRouteLoaderData } from 'react-router'
import { Link } from '#app/components/link.tsx'
import type { z } from 'zod'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#app/components/ui/dialog.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, type CardLabels } from '#app/components/ui/table.tsx'
import { blankOf, FORM_END_FIELD, SAVE_KEY_FIELD, type Confirmation } from '#app/lib/editable-rows.ts'
import { ORGANIZATION_FIELD } from '#app/lib/organization-field.ts'
import { notify } from '#app/lib/notify.ts'
import { withoutEditMode } from '#app/lib/table-params.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { cn } from '#app/lib/utils.ts'
import { APP_LAYOUT_ROUTE, type AppLayoutData } from '#app/lib/app-layout.ts'
import { CellError, NativeSelect } from './data-table.tsx'
import { EditToolbar, UnsavedChangesDialog, useUnsavedChangesGuard } from './edit-guard.tsx'

/**
 * The browser half of the editable-table kit (the server half is .server/data-table.ts). A
 * screen declares its header, its value cells, its schema and its rows; the kit brings the
 * edit form (a plain post that works without JavaScript), the toolbar, the unsaved-changes
 * guard, the remove/delete cell pinned to the right, row errors with the newer values of a
 * conflict, the question a deletion asks first, and the keyboard: Enter moves to the same cell
 * of the next row, Ctrl/Cmd+Enter saves.
 */

/** What a table action answers (tableAction), as the screen receives it. */
export type TableActionData<V> =
	| {
			result?: unknown
			formError?: string
			conflicts?: Record<number, V>
			confirm?: Confirmation
			/** Cancel was posted (no JavaScript) with rows changed: ask before leaving. */
			discard?: boolean
	  }
	| undefined

type LoadedRow = { id: string; version: string; fingerprint: string }
type Meta = { id?: string; version?: string; fingerprint?: string; blank?: string; deleted?: string }
export type EditRowValues = Record<string, string | undefined>
type FormValues = { rows: EditRowValues[] }
/** A cell's field (conform's metadata of one value of one row). */
export type CellField = FieldMetadata<string | undefined, FormValues, string[]>
/** A row's fields, by name: the screen's values and the kit's own (id, version …). */
export type RowFields<R extends EditRowValues> = { [K in keyof R | keyof Meta]-?: CellField }
export type ErrorText = (code: string | undefined) => string | undefined

/** An error code as text: {ns}:errors.{code}, or a generic "not valid". */
export function useErrorText(ns: string): ErrorText {
	const { t, i18n } = useTranslation(ns)
	return (code) => {
		if (!code) return undefined
		return i18n.exists(`${ns}:errors.${code}`) ? t(`${ns}:errors.${code}`) : t('table:errors.invalidValue')
	}
}

const TABLE_ROW = 'data-edit-row'

export function EditableTable<L extends LoadedRow, R extends EditRowValues, V>({
	ns,
	schema,
	rows: loaded,
	values,
	blank,
	actionData,
	header,
	labels,
	cells,
	conflictItems,
	deletable = true,
	addDisabledReason,
	children,
}: {
	/** The screen's namespace: editCaption, columns.actions, empty.none, errors.*, conflict.*, warnings.* */
	ns: string
	schema: z.ZodType
	/** The loaded rows, with the id, version and fingerprint the save checks. */
	rows: L[]
	/** A loaded row's values as the form shows them (text). */
	values: (row: L) => Partial<R>
	/** A new row's values. */
	blank: R
	actionData: TableActionData<V>
	/** The header cells of the value columns (the kit adds the actions column). */
	header: React.ReactNode
	/** The value columns' names, in order: the phone cards' labels (the kit adds the actions column). */
	labels: CardLabels
	cells: (fields: RowFields<R>, row: { index: number; isNew: boolean; errorText: ErrorText }) => React.ReactNode
	conflictItems: (values: V) => [string, string][]
	/** False: saved rows have no delete box (the server refuses their deletion too). */
	deletable?: boolean
	/** Why no row can be added (Add row is disabled and says so). */
	addDisabledReason?: string
	/** Anything the cells refer to, such as a datalist. */
	children?: React.ReactNode
}) {
	const { t } = useTranslation('table')
	const location = useLocation()
	const navigation = useNavigation()
	const saveKey = useRouteLoaderData<AppLayoutData>(APP_LAYOUT_ROUTE)?.saveKey
	const errorText = useErrorText(ns)
	const newRow = { ...blank, blank: blankOf(blank as Record<string, string>) }
	const existing = loaded.map((row) => ({ id: row.id, version: row.version, fingerprint: row.fingerprint, ...values(row) }))
	// The "Add" link opens the edit mode with one new row (add=1 in the URL).
	const add = new URLSearchParams(location.search).get('add') === '1'
	const [form, fields] = useForm<FormValues>({
		id: `${ns}-edit`,
		lastResult: actionData?.result as never,
		defaultValue: { rows: add ? [newRow, ...existing] : existing },
		onValidate: ({ formData }) => parseWithZod(formData, { schema }) as never,
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		// The save key and the form's last field are no values of the user's.
		shouldDirtyConsider: (name) => name !== FORM_END_FIELD && name !== SAVE_KEY_FIELD && name !== ORGANIZATION_FIELD,
	})
	const cancelHref = withoutEditMode(new URL(location.pathname + location.search, 'http://localhost'))
	const rows = fields.rows.getFieldList()
	const dirty = form.dirty || rows.some((row) => !row.getFieldset().id?.initialValue)
	const { blocker, markSaving } = useUnsavedChangesGuard(dirty)
	const posted = navigation.state !== 'idle' ? navigation.formData : undefined
	const saving = posted?.get('intent') === 'save' || posted?.get('confirmed') === '1'
	const formError = actionData?.formError ?? (form.status === 'error' ? 'saveFailed' : undefined)
	const listError = fields.rows.errors?.[0]
	const tableRef = useRef<HTMLDivElement>(null)

	useEffect(() => {
		if (actionData?.formError) notify('error', t('toast.saveFailed'))
	}, [actionData, t])

	// Focus moves into the table when the edit mode opens, unless the user has already clicked
	// into a field while the page loaded, and to a row added (at the top).
	const firstKey = rows[0]?.key
	const seen = useRef<{ count: number; firstKey: string | undefined } | null>(null)
	useEffect(() => {
		const previous = seen.current
		seen.current = { count: rows.length, firstKey }
		if (previous && (rows.length <= previous.count || firstKey === previous.firstKey)) return
		if (!previous && document.activeElement?.matches('input, select, textarea')) return
		tableRef.current?.querySelector<HTMLElement>(`tr[${TABLE_ROW}] :is(input:not([type=hidden]), select)`)?.focus({ preventScroll: true })
	}, [rows.length, firstKey])

	return (
		<AppForm
			method="post"
			action={location.pathname + location.search}
			{...getFormProps(form)}
			onSubmit={(event) => {
				form.onSubmit(event)
				if (!event.defaultPrevented) markSaving()
			}}
			onKeyDown={onCellKeyDown}
			className="grid min-w-0 grid-cols-1 gap-4"
		>
			{/* What Enter presses without JavaScript: check the rows, save nothing. */}
			<button {...form.validate.getButtonProps()} className="sr-only" tabIndex={-1} aria-hidden="true" />
			<EditToolbar
				addButtonProps={form.insert.getButtonProps({ name: fields.rows.name, index: 0, defaultValue: newRow })}
				addDisabledReason={addDisabledReason}
				saving={saving}
				cancelHref={cancelHref}
				dirty={dirty}
			/>
			{formError || listError ? <FormAlert ns="table" code={listError ?? formError} id={`${ns}-edit-error`} /> : null}
			{actionData?.confirm ? <ConfirmSave formId={form.id} ns={ns} confirm={actionData.confirm} /> : null}
			{actionData?.discard ? <DiscardQuestion formId={form.id} cancelHref={cancelHref} /> : null}
			{children}
			<div className="rounded-md border" ref={tableRef}>
				<Table cards={[...labels, null]} data-editing="">
					<caption className="sr-only">{t(`${ns}:editCaption`)}</caption>
					<TableHeader>
						<TableRow>
							{header}
							<TableHead className={stickyCell}>
								<span className="sr-only">{t(`${ns}:columns.actions`)}</span>
							</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{rows.length === 0 ? (
							<TableRow>
								<TableCell colSpan={labels.length + 1} className="h-24 text-center text-muted-foreground">
									{t(`${ns}:empty.none`)}
								</TableCell>
							</TableRow>
						) : (
							rows.map((row, index) => {
								const f = row.getFieldset() as unknown as RowFields<R>
								const isNew = !f.id.initialValue
								const deleted = f.deleted.value === 'on'
								const rowLevel = form.allErrors[`${row.name}.row`]?.[0] ?? f.id.errors?.[0] ?? f.version.errors?.[0]
								const conflict = actionData?.conflicts?.[index]
								return (
									<EditRow key={row.key ?? row.id} deleted={deleted} columnCount={labels.length}>
										<>
											{cells(f, { index, isNew, errorText })}
											<TableCell className={cn(stickyCell, 'align-top no-underline card-actions')}>
												<input {...getInputProps(f.id, { type: 'hidden' })} />
												<input {...getInputProps(f.version, { type: 'hidden' })} />
												<input {...getInputProps(f.fingerprint, { type: 'hidden' })} />
												<input {...getInputProps(f.blank, { type: 'hidden' })} />
												{isNew ? (
													<Button
														type="submit"
														variant="ghost"
														size="sm"
														{...form.remove.getButtonProps({ name: fields.rows.name, index })}
														aria-label={t('removeRow')}
													>
														<XIcon aria-hidden="true" />
														<span className="sr-only">{t('remove')}</span>
													</Button>
												) : deletable ? (
													<label className="inline-flex h-9 items-center gap-1.5 text-sm whitespace-nowrap" title={t('deleteRow')}>
														<input {...getInputProps(f.deleted, { type: 'checkbox' })} className="size-4 accent-destructive" />
														<Trash2Icon className="size-4 text-muted-foreground" aria-hidden="true" />
														<span className="sr-only">{t('deleteRow')}</span>
													</label>
												) : null}
											</TableCell>
										</>
										{rowLevel ? (
											<Alert variant="destructive" className="py-2">
												<AlertTitle>{errorText(rowLevel)}</AlertTitle>
												{conflict ? (
													<AlertDescription>
														<ConflictValues ns={ns} items={conflictItems(conflict)} />
													</AlertDescription>
												) : null}
											</Alert>
										) : null}
									</EditRow>
								)
							})
						)}
					</TableBody>
				</Table>
			</div>
			<UnsavedChangesDialog blocker={blocker} />
			{saveKey ? <input type="hidden" name={SAVE_KEY_FIELD} value={saveKey} /> : null}
			{/* Last: a post without it was sent before the page had finished loading. */}
			<input type="hidden" name={FORM_END_FIELD} value="1" />
		</AppForm>
	)
}

/** The actions column stays in view at the right edge while the other cells scroll. */
const stickyCell = 'sticky right-0 z-10 w-12 bg-background shadow-[inset_1px_0_0_var(--border)]'

/** A row of values and, under it, its alert (a refusal, a conflict) spanning the table. */
function EditRow({
	deleted,
	columnCount,
	children,
}: {
	deleted: boolean
	columnCount: number
	children: [React.ReactNode, React.ReactNode]
}) {
	const [cellsOfRow, alert] = children
	return (
		<>
			<TableRow
				{...{ [TABLE_ROW]: '' }}
				data-deleted={deleted || undefined}
				className={cn(deleted && 'bg-destructive/5 line-through opacity-70')}
			>
				{cellsOfRow}
			</TableRow>
			{alert ? (
				<TableRow className="hover:bg-transparent">
					<TableCell colSpan={columnCount + 1} className="pt-0 whitespace-normal">
						{alert}
					</TableCell>
				</TableRow>
			) : null}
		</>
	)
}

/** The newer values of a row someone else changed, shown with the refusal. */
function ConflictValues({ ns, items }: { ns: string; items: [string, string][] }) {
	const { t } = useTranslation(ns)
	return (
		<div className="grid gap-1">
			<p>{t(`${ns}:conflict.newer`)}</p>
			<dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
				{items.map(([label, value]) => (
					<div key={label} className="contents">
						<dt className="font-medium">{label}</dt>
						<dd>{value}</dd>
					</div>
				))}
			</dl>
			<p>{t(`${ns}:conflict.howTo`)}</p>
		</div>
	)
}

/**
 * Enter in a cell moves to the same cell of the next row (never saving the whole form, with
 * its deletions); Ctrl/Cmd+Enter saves; Escape puts the cell back to its value when the edit
 * mode opened (not in a cell with suggestions, where Escape closes them).
 */
function onCellKeyDown(event: React.KeyboardEvent<HTMLFormElement>) {
	if ((event.key !== 'Enter' && event.key !== 'Escape') || event.nativeEvent.isComposing) return
	const target = event.target
	const isField =
		(target instanceof HTMLInputElement && !['submit', 'button', 'checkbox', 'radio'].includes(target.type)) ||
		target instanceof HTMLSelectElement
	if (!isField) return
	if (event.key === 'Escape') {
		if (target instanceof HTMLInputElement && target.list) return
		revertField(target as HTMLInputElement | HTMLSelectElement)
		return
	}
	event.preventDefault()
	if (event.ctrlKey || event.metaKey) {
		const save = event.currentTarget.querySelector<HTMLButtonElement>('button[name="intent"][value="save"]')
		event.currentTarget.requestSubmit(save ?? undefined)
		return
	}
	const cell = target.closest('td')
	let row = cell?.closest('tr')?.nextElementSibling
	while (row && !row.hasAttribute(TABLE_ROW)) row = row.nextElementSibling
	const next = row instanceof HTMLTableRowElement && cell ? row.cells[cell.cellIndex] : null
	next?.querySelector<HTMLElement>('input:not([type=hidden]), select')?.focus()
}

/** A field back to the value it was rendered with. */
function revertField(field: HTMLInputElement | HTMLSelectElement) {
	const original =
		field instanceof HTMLSelectElement ? ([...field.options].find((o) => o.defaultSelected)?.value ?? '') : field.defaultValue
	if (field.value !== original) setFieldValue(field, original)
}

/**
 * Sets a cell's value from code as if the user had typed it, so that the form's state (conform,
 * the unsaved badge) sees it: the native setter, then `input` and `change` as the browser sends.
 */
export function setFieldValue(field: HTMLInputElement | HTMLSelectElement, value: string) {
	const prototype = field instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype
	Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value)
	field.dispatchEvent(new Event('input', { bubbles: true }))
	field.dispatchEvent(new Event('change', { bubbles: true }))
}

/**
 * Cancel posted without JavaScript, with rows changed: the question the dialog asks with
 * JavaScript, on the page the server answered with, above the table that keeps what was typed.
 */
function DiscardQuestion({ formId, cancelHref }: { formId: string; cancelHref: string }) {
	const { t } = useTranslation('table')
	return (
		<section
			role="alertdialog"
			aria-labelledby={`${formId}-discard`}
			className="grid gap-3 rounded-md border border-destructive/50 p-4 text-sm"
		>
			<h2 id={`${formId}-discard`} className="font-semibold">
				{t('discard.title')}
			</h2>
			<p>{t('discard.notSaved')}</p>
			<div className="flex flex-wrap gap-2">
				<Button asChild variant="destructive">
					<Link to={cancelHref}>{t('discard.confirm')}</Link>
				</Button>
				<p className="self-center text-muted-foreground">{t('discard.orKeep')}</p>
			</div>
		</section>
	)
}

/**
 * The question a save that deletes rows (or has warnings) asks first, with the counts. With
 * JavaScript a dialog; without, the same question on the page the server answered with. The
 * answer posts the form again with `confirmed=1`.
 */
function ConfirmSave({ formId, ns, confirm }: { formId: string; ns: string; confirm: Confirmation }) {
	const { t } = useTranslation('table')
	const hydrated = useHydrated()
	const [open, setOpen] = useState(true)
	// A new answer asks again (set while rendering, as React advises for state from props).
	const [asked, setAsked] = useState(confirm)
	if (asked !== confirm) {
		setAsked(confirm)
		setOpen(true)
	}
	const body = (
		<>
			<p>{t('toast.savedSummary', { inserted: confirm.inserted, updated: confirm.updated, deleted: confirm.deleted })}</p>
			{confirm.warnings.length > 0 ? (
				<ul className="list-disc pl-5">
					{confirm.warnings.map((w) => (
						<li key={`${w.index}-${w.code}`}>{t(`${ns}:warnings.${w.code}`, { value: w.value })}</li>
					))}
				</ul>
			) : null}
		</>
	)
	const title = confirm.deleted > 0 ? t('confirm.deleteTitle', { count: confirm.deleted }) : t('confirm.title')
	const yes = (
		<Button
			type="submit"
			form={formId}
			name="confirmed"
			value="1"
			variant={confirm.deleted > 0 ? 'destructive' : 'default'}
			onClick={() => setOpen(false)}
		>
			{t('confirm.save')}
		</Button>
	)
	if (!hydrated) {
		return (
			<section
				role="alertdialog"
				aria-labelledby={`${formId}-confirm`}
				className="grid gap-3 rounded-md border border-destructive/50 p-4 text-sm"
			>
				<h2 id={`${formId}-confirm`} className="font-semibold">
					{title}
				</h2>
				{body}
				<div className="flex flex-wrap gap-2">
					{yes}
					<p className="self-center text-muted-foreground">{t('confirm.orEdit')}</p>
				</div>
			</section>
		)
	}
	return (
		<Dialog open={open} onOpenChange={setOpen}>
			<DialogContent role="alertdialog" showCloseButton={false}>
				<DialogHeader>
					<DialogTitle>{title}</DialogTitle>
					<DialogDescription asChild>
						<div className="grid gap-2">{body}</div>
					</DialogDescription>
				</DialogHeader>
				<DialogFooter>
					<Button type="button" variant="outline" onClick={() => setOpen(false)}>
						{t('keepEditing')}
					</Button>
					{yes}
				</DialogFooter>
			</DialogContent>
		</Dialog>
	)
}

/**
 * A cell's place in the card a row becomes on a phone (app.css): the title (the amount) and
 * subtitle (the client) first, meta (date, category) under them, other values next, wide ones
 * across the card, the actions at the end; hidden ones are left out of the card. A cell takes
 * its role as the class `card-<role>`.
 */
export type CardRole = 'title' | 'subtitle' | 'meta' | 'wide' | 'actions' | 'hidden'

/** A text cell: the input, labelled by its column, and its error under it. */
export function TextCell({
	field,
	label,
	errorText,
	type = 'text',
	card,
	className,
	...props
}: {
	field: CellField
	label: string
	errorText: ErrorText
	type?: 'text' | 'email' | 'tel' | 'date'
	/** Its place in the phone's card (docs/decisions/021-table-cards.md). */
	card?: CardRole
} & Omit<React.ComponentProps<'input'>, 'type' | 'form'>) {
	return (
		<TableCell className={card ? `align-top card-${card}` : 'align-top'}>
			<Input {...getInputProps(field, { type })} aria-label={label} className={cn('w-full', className)} {...props} />
			<CellError id={field.errorId} message={errorText(field.errors?.[0])} />
		</TableCell>
	)
}

/** A select cell over fixed options ([value, label]). */
export function SelectCell({
	field,
	label,
	errorText,
	options,
	card,
	className,
}: {
	field: CellField
	label: string
	errorText: ErrorText
	options: readonly (readonly [string, string])[]
	card?: CardRole
	className?: string
}) {
	return (
		<TableCell className={card ? `align-top card-${card}` : 'align-top'}>
			<NativeSelect {...getSelectProps(field)} aria-label={label} className={cn('w-full', className)}>
				{options.map(([value, text]) => (
					<option key={value} value={value}>
						{text}
					</option>
				))}
			</NativeSelect>
			<CellError id={field.errorId} message={errorText(field.errors?.[0])} />
		</TableCell>
	)
}
