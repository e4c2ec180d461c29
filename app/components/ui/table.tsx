import * as React from 'react'
import { cn } from '../../lib/utils.ts'

/**
 * The phone cards' labels, column by column (null: a column whose cells show no label, such as a
 * row's own header). Written once per table, as a style of its own, rather than on each cell: on
 * a page of 25 rows the same 7 labels were 175 attributes, each written out by React on its own.
 */
export type CardLabels = readonly (string | null)[]

/** A CSS string literal: quotes, backslashes, line breaks and `<` escaped, so a label stays text and cannot end the style. */
function cssString(text: string) {
	return `"${text.replace(/["\\\n\r\f<]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`
}

/** The rules that show each column's label above its value in the phone cards (app.css). */
function cardLabelRules(id: string, labels: CardLabels) {
	const rows = `table[data-cards="${id}"]>:is(tbody,tfoot)>tr>`
	const rules = labels.flatMap((label, index) =>
		label ? [`${rows}:nth-child(${index + 1}):not([colspan])::before{content:${cssString(label)}}`] : [],
	)
	return `@media (width < 48rem){${rules.join('')}}`
}

/**
 * `cards` lists the rows as cards below md (app.css, docs/decisions/021-table-cards.md): the
 * columns' names in order (the cards' labels), and on cells, where it matters, a role as a class
 * (`card-title`, `card-subtitle`, `card-meta`, `card-wide`, `card-actions`, `card-hidden`).
 * `scrollLabel` names the scroll area and lets the keyboard reach it (a region in the tab order)
 * for a table that may scroll sideways.
 * Rows, header cells and cells take their look from app/styles/app.css (the `[data-slot='table']`
 * rules), not from classes of their own: a page of rows carries no class per cell, and a cell's
 * `className` still wins, as a utility does over a component rule.
 */
function Table({ className, cards, scrollLabel, ...props }: React.ComponentProps<'table'> & { cards?: CardLabels; scrollLabel?: string }) {
	const id = React.useId()
	return (
		<div
			data-slot="table-container"
			className="relative w-full overflow-x-auto focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
			{...(scrollLabel ? { role: 'region', 'aria-label': scrollLabel, tabIndex: 0 } : {})}
		>
			{cards ? <style>{cardLabelRules(id, cards)}</style> : null}
			<table data-slot="table" data-cards={cards ? id : undefined} className={cn('w-full caption-bottom text-sm', className)} {...props} />
		</div>
	)
}

function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
	return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />
}

function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
	return <tbody data-slot="table-body" className={cn('[&_tr:last-child]:border-0', className)} {...props} />
}

function TableFooter({ className, ...props }: React.ComponentProps<'tfoot'>) {
	return <tfoot data-slot="table-footer" className={cn('border-t bg-muted/50 font-medium [&>tr]:last:border-b-0', className)} {...props} />
}

// The elements themselves: rows and cells add nothing of their own (their look is app.css's).
const TableRow = 'tr'
const TableHead = 'th'
const TableCell = 'td'

function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
	return <caption data-slot="table-caption" className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />
}

export { Table, TableHeader, TableBody, TableFooter, TableHead, TableRow, TableCell, TableCaption }
