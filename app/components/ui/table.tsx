import * as React from 'react'
import { cn } from '../../lib/utils.ts'

/**
 * `cards` lists the rows as cards below md (app.css, docs/decisions/021-table-cards.md): give
 * each cell a `data-label` (its column) and, where it matters, a `data-card` role (title,
 * subtitle, meta, wide, actions, hidden). `scrollLabel` names the scroll area and lets the
 * keyboard reach it (a region in the tab order) for a table that may scroll sideways.
 * Rows, header cells and cells take their look from app/styles/app.css (the `[data-slot='table']`
 * rules), not from classes of their own: a page of rows carries no class per cell, and a cell's
 * `className` still wins, as a utility does over a component rule.
 */
function Table({
	className,
	cards,
	scrollLabel,
	...props
}: React.ComponentProps<'table'> & { cards?: boolean; scrollLabel?: string }) {
	return (
		<div
			data-slot="table-container"
			className="relative w-full overflow-x-auto focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
			{...(scrollLabel ? { role: 'region', 'aria-label': scrollLabel, tabIndex: 0 } : {})}
		>
			<table data-slot="table" data-cards={cards ? '' : undefined} className={cn('w-full caption-bottom text-sm', className)} {...props} />
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
	return (
		<tfoot
			data-slot="table-footer"
			className={cn('border-t bg-muted/50 font-medium [&>tr]:last:border-b-0', className)}
			{...props}
		/>
	)
}

// The elements themselves: rows and cells add nothing of their own (their look is app.css's).
const TableRow = 'tr'
const TableHead = 'th'
const TableCell = 'td'

function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
	return (
		<caption data-slot="table-caption" className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />
	)
}

export { Table, TableHeader, TableBody, TableFooter, TableHead, TableRow, TableCell, TableCaption }
