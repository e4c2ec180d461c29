/**
 * An invoice as its client reads it, written out in one language (docs/product.md, Invoicing ›
 * The client's page, PDF and mail): every label, date and amount of the public page
 * (app/components/invoices/public-invoice.tsx) and of its PDF (./pdf.ts), in the same order, so
 * the two cannot say different things. Built from what the page's token reads
 * (`getPublicInvoice`); pure, so the page, the PDF and their tests share it.
 */
import { formatDate, formatLanguage, formatMoney, formatNumber } from '#app/lib/format.ts'
import { isLanguage, type Language } from '#app/lib/i18n.ts'
import { tIn } from '../i18n.ts'
import { payLinks } from '../payments/handles.ts'
import type { InvoiceState, PublicInvoice } from './public-page.ts'

export type InvoiceView = {
	language: Language
	/** "Invoice #12". */
	title: string
	organization: { name: string; logoUrl: string | null }
	state: InvoiceState
	stateLabel: string
	/** What the state means for the client (paid, void, overdue, partly paid); none while simply sent. */
	banner: string | null
	/** Billed to, issue date, due date. */
	facts: Array<{ label: string; value: string }>
	columns: { description: string; quantity: string; unitPrice: string; amount: string }
	lines: Array<{ description: string; quantity: string; unitPrice: string; amount: string }>
	/** Subtotal, discount and tax when there are some, total, amount paid, balance due (last, `strong`), overpaid when it is. */
	totals: Array<{ label: string; value: string; strong?: boolean }>
	notes: { label: string; text: string } | null
	/** How to pay while something is owed; null once paid or void. */
	pay: {
		heading: string
		intro: string
		codeLabel: string
		code: string
		putInMemo: string
		ways: Array<{ kind: string; label: string; href: string | null }>
		/** When the organization has no handle: pay it as usual, with the code. */
		none: string | null
	} | null
	/** The page's own words: its buttons and the names of its parts. */
	labels: { from: string; lines: string; totals: string; download: string; print: string; language: string; copy: string; copied: string }
}

/** The invoice as its client reads it in `language` (the invoice's own, unless the reader chose another). */
export function invoiceView(invoice: PublicInvoice, language: string = invoice.language): InvoiceView {
	const lng = formatLanguage(language)
	const t = tIn(lng, 'invoice-page')
	const book = tIn(lng, 'book')
	const money = (v: string) => formatMoney(v, lng)
	const organization = invoice.organization.name
	const discount = Number(invoice.discount)
	const taxRate = Number(invoice.taxRate)
	const tax = Number(invoice.total) - (Number(invoice.subtotal) - discount)
	const overpaid = Number(invoice.amountPaid) - Number(invoice.total)
	const owed = invoice.code !== null && Number(invoice.balance) > 0

	const banner =
		invoice.state === 'paid'
			? t('banner.paid')
			: invoice.state === 'void'
				? t('banner.void')
				: invoice.state === 'overdue'
					? t('banner.overdue', { date: formatDate(invoice.dueDate, lng), balance: money(invoice.balance) })
					: invoice.state === 'partly_paid'
						? t('banner.partlyPaid', { paid: money(invoice.amountPaid), balance: money(invoice.balance) })
						: null

	const links = owed ? payLinks(invoice.handles, invoice.balance) : []
	return {
		language: lng,
		title: t('numbered', { number: invoice.number }),
		organization: invoice.organization,
		state: invoice.state,
		stateLabel: t(`state.${invoice.state}`),
		banner,
		facts: [
			...(invoice.billTo ? [{ label: t('billTo'), value: invoice.billTo }] : []),
			{ label: t('issued'), value: formatDate(invoice.issueDate, lng) },
			{ label: t('due'), value: formatDate(invoice.dueDate, lng) },
		],
		columns: {
			description: t('columns.description'),
			quantity: t('columns.quantity'),
			unitPrice: t('columns.unitPrice'),
			amount: t('columns.amount'),
		},
		lines: invoice.lines.map((l) => ({
			description: l.description,
			quantity: formatNumber(Number(l.quantity), lng),
			unitPrice: money(l.unitPrice),
			amount: money(l.amount),
		})),
		totals: [
			{ label: t('totals.subtotal'), value: money(invoice.subtotal) },
			...(discount > 0 ? [{ label: t('totals.discount'), value: `−${money(invoice.discount)}` }] : []),
			...(taxRate > 0 ? [{ label: t('totals.tax', { rate: formatNumber(taxRate, lng) }), value: money(tax.toFixed(2)) }] : []),
			{ label: t('totals.total'), value: money(invoice.total) },
			{ label: t('totals.paid'), value: money(invoice.amountPaid) },
			...(overpaid > 0 ? [{ label: t('totals.overpaid'), value: money(overpaid.toFixed(2)) }] : []),
			{ label: t('totals.balance'), value: money(invoice.balance), strong: true },
		],
		notes: invoice.notes ? { label: t('notes'), text: invoice.notes } : null,
		pay:
			owed && invoice.code
				? {
						heading: t('pay.heading'),
						intro: t('pay.intro', { amount: money(invoice.balance), organization }),
						codeLabel: t('pay.codeLabel'),
						code: invoice.code,
						putInMemo: t('pay.putInMemo'),
						ways: links.map((l) => ({ kind: l.kind, label: book(`pay.${l.kind}`, { handle: l.handle }), href: l.href })),
						none: links.length ? null : t('pay.none', { organization }),
					}
				: null,
		labels: {
			from: t('page.from'),
			lines: t('page.lines'),
			totals: t('page.totals'),
			download: t('page.download'),
			print: t('page.print'),
			language: t('page.language'),
			copy: t('pay.copy'),
			copied: t('pay.copied'),
		},
	}
}

/**
 * The language of an invoice's page and PDF: the one the reader chose on the page (`?lng=`),
 * else the invoice's own (the language it was sent in), whatever the browser's.
 */
export function invoiceLanguage(url: URL, invoice: Pick<PublicInvoice, 'language'>): Language {
	const chosen = url.searchParams.get('lng')
	return isLanguage(chosen) ? chosen : formatLanguage(invoice.language)
}
