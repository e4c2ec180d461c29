import { useEffect, useRef, useState } from 'react'
import { Form } from 'react-router'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { CheckIcon, CopyIcon, ExternalLinkIcon, SearchIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { languageNames, isLanguage } from '#app/lib/i18n.ts'
import type { InvoiceState, MatchMethod } from '#app/lib/invoices.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * A sent (or void) invoice's page (docs/product.md, Invoicing): everything as it was sent, what
 * was received and how, its public page's link, and the staff's actions: link a payment by hand,
 * undo a link, mark paid, void. Every action is a plain form post; the irreversible ones ask
 * first, on the page (`?confirm=`), so they work the same without JavaScript.
 */

export type SentInvoice = {
	id: string
	number: number | null
	state: InvoiceState
	clientId: string | null
	clientName: string | null
	clientEmail: string | null
	language: string
	issueDate: string
	dueDate: string
	notes: string | null
	taxRate: string
	discount: string
	subtotal: string
	tax: string
	total: string
	amountPaid: string
	balance: string
	overpaid: string
	memoCode: string | null
	markedPaid: boolean
	lines: Array<{ description: string; quantity: string; unitPrice: string; amount: string }>
}

export type PaymentOfInvoice = {
	matchId: string
	date: string
	payer: string | null
	amount: string
	paymentMethod: string
	how: MatchMethod
}

export type PaymentToLink = {
	id: string
	date: string
	payer: string | null
	amount: string
	paymentMethod: string
	description: string | null
}

/** The invoice as sent: who, when, in which language, and the code its payments carry. */
export function InvoiceFacts({ invoice }: { invoice: SentInvoice }) {
	const { t } = useTranslation('invoices')
	const fmt = useFormat()
	const open = invoice.state !== 'paid' && invoice.state !== 'void'
	return (
		<Card>
			<CardContent className="pt-6">
				<dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
					<div className="grid gap-0.5">
						<dt className="text-muted-foreground">{t('detail.billTo')}</dt>
						<dd className="font-medium break-words">
							{invoice.clientId ? (
								<Link to={`/app/clients/${invoice.clientId}`} className="text-primary underline-offset-4 hover:underline">
									{invoice.clientName}
								</Link>
							) : (
								invoice.clientName
							)}
							<span className="block font-normal break-all text-muted-foreground">{invoice.clientEmail ?? t('detail.noEmail')}</span>
						</dd>
					</div>
					<div className="grid gap-0.5">
						<dt className="text-muted-foreground">{t('detail.language')}</dt>
						<dd>{isLanguage(invoice.language) ? languageNames[invoice.language] : invoice.language}</dd>
					</div>
					<div className="grid gap-0.5">
						<dt className="text-muted-foreground">{t('form.issueDate')}</dt>
						<dd className="tabular-nums">{fmt.date(invoice.issueDate)}</dd>
					</div>
					<div className="grid gap-0.5">
						<dt className="text-muted-foreground">{t('form.dueDate')}</dt>
						<dd className="tabular-nums">{fmt.date(invoice.dueDate)}</dd>
					</div>
					{invoice.memoCode ? (
						<div className="grid gap-0.5 sm:col-span-2">
							<dt className="text-muted-foreground">{t('detail.code')}</dt>
							<dd>
								<span className="font-mono text-base font-semibold tracking-wider" data-testid="invoice-code">
									{invoice.memoCode}
								</span>
								{open ? <span className="block text-muted-foreground">{t('detail.codeHint')}</span> : null}
							</dd>
						</div>
					) : null}
					{invoice.notes ? (
						<div className="grid gap-0.5 sm:col-span-2">
							<dt className="text-muted-foreground">{t('form.notes')}</dt>
							<dd className="whitespace-pre-line">{invoice.notes}</dd>
						</div>
					) : null}
				</dl>
			</CardContent>
		</Card>
	)
}

/** The lines as sent, then the totals and what was received. */
export function InvoiceLinesAndTotals({ invoice }: { invoice: SentInvoice }) {
	const { t } = useTranslation('invoices')
	const fmt = useFormat()
	const label = {
		description: t('lines.description'),
		quantity: t('lines.quantity'),
		unitPrice: t('lines.unitPrice'),
		amount: t('lines.amount'),
	}
	const overpaid = Number(invoice.overpaid) > 0
	return (
		<section aria-labelledby="invoice-lines" className="grid min-w-0 gap-3">
			<h2 id="invoice-lines" className="text-lg font-semibold">
				{t('lines.title')}
			</h2>
			<div className="rounded-md border">
				<Table cards={[label.description, label.quantity, label.unitPrice, label.amount]}>
					<caption className="sr-only">{t('lines.caption')}</caption>
					<TableHeader>
						<TableRow>
							<TableHead>{label.description}</TableHead>
							<TableHead className="text-right">{label.quantity}</TableHead>
							<TableHead className="text-right">{label.unitPrice}</TableHead>
							<TableHead className="text-right">{label.amount}</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{invoice.lines.map((line, i) => (
							<TableRow key={i}>
								<TableCell className="whitespace-normal wrap-anywhere card-wide">{line.description}</TableCell>
								<TableCell className="text-right tabular-nums card-meta">{fmt.number(Number(line.quantity))}</TableCell>
								<TableCell className="text-right tabular-nums card-meta">{fmt.money(line.unitPrice)}</TableCell>
								<TableCell className="text-right tabular-nums card-title">{fmt.money(line.amount)}</TableCell>
							</TableRow>
						))}
					</TableBody>
				</Table>
			</div>
			<dl className="ml-auto grid w-full max-w-sm grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm tabular-nums" aria-label={t('totals.title')}>
				<dt>{t('totals.subtotal')}</dt>
				<dd className="text-right">{fmt.money(invoice.subtotal)}</dd>
				{Number(invoice.discount) > 0 ? (
					<>
						<dt>{t('totals.discount')}</dt>
						<dd className="text-right">{`−${fmt.money(invoice.discount)}`}</dd>
					</>
				) : null}
				{Number(invoice.taxRate) > 0 ? (
					<>
						<dt>{t('totals.tax', { rate: fmt.number(Number(invoice.taxRate)) })}</dt>
						<dd className="text-right">{fmt.money(invoice.tax)}</dd>
					</>
				) : null}
				<dt className="border-t pt-1 font-semibold">{t('totals.total')}</dt>
				<dd className="border-t pt-1 text-right font-semibold">{fmt.money(invoice.total)}</dd>
				{invoice.state === 'draft' || invoice.state === 'void' ? null : (
					<>
						<dt>{t('totals.paid')}</dt>
						<dd className="text-right" data-testid="invoice-paid">
							{fmt.money(invoice.amountPaid)}
						</dd>
						<dt className="font-semibold">{t('totals.balance')}</dt>
						<dd className="text-right font-semibold" data-testid="invoice-balance">
							{fmt.money(invoice.balance)}
						</dd>
						{overpaid ? (
							<>
								<dt className="text-amber-800 dark:text-warning">{t('totals.overpaid')}</dt>
								<dd className="text-right text-amber-800 dark:text-warning" data-testid="invoice-overpaid">
									{fmt.money(invoice.overpaid)}
								</dd>
							</>
						) : null}
					</>
				)}
			</dl>
		</section>
	)
}

/** How long the copied tick stays before the copy icon comes back. */
const COPIED_MS = 2000

/**
 * The invoice's public page (/i/{token}): in a read-only field (select it and copy, also without
 * JavaScript), a copy button once the page runs scripts, and a link that opens it. Without the
 * link (a server that cannot keep it), a sentence says so.
 */
export function PublicLink({ url }: { url: string | null }) {
	const { t } = useTranslation('invoices')
	const hydrated = useHydrated()
	const [copied, setCopied] = useState(false)
	const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
	useEffect(() => () => clearTimeout(timer.current), [])
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('link.title')}</h2>
				</CardTitle>
				<CardDescription>{url ? t('link.description') : t('link.unavailable')}</CardDescription>
			</CardHeader>
			{url ? (
				<CardContent className="flex flex-wrap items-center gap-2">
					<Input
						readOnly
						value={url}
						aria-label={t('link.label')}
						title={url}
						className="min-w-0 flex-1 basis-full font-mono sm:basis-0"
						onFocus={(event) => event.currentTarget.select()}
					/>
					{hydrated ? (
						<Button
							type="button"
							variant="outline"
							aria-live="polite"
							onClick={async () => {
								clearTimeout(timer.current)
								await navigator.clipboard.writeText(url).then(
									() => setCopied(true),
									() => setCopied(false),
								)
								timer.current = setTimeout(() => setCopied(false), COPIED_MS)
							}}
						>
							{copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
							{copied ? t('link.copied') : t('link.copy')}
						</Button>
					) : null}
					<Button asChild variant="outline">
						<a href={url} target="_blank" rel="noopener noreferrer">
							<ExternalLinkIcon aria-hidden="true" />
							{t('link.open')}
						</a>
					</Button>
				</CardContent>
			) : null}
		</Card>
	)
}

/** The payments linked to the invoice, each with how it was matched and a button to undo the link. */
export function LinkedPayments({ payments, code, action }: { payments: PaymentOfInvoice[]; code: string | null; action: string }) {
	const { t } = useTranslation('invoices')
	const fmt = useFormat()
	return (
		<section aria-labelledby="invoice-payments" className="grid gap-2">
			<h2 id="invoice-payments" className="text-lg font-semibold">
				{t('payments.title')}
			</h2>
			{payments.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('payments.none')}</p>
			) : (
				<ul className="grid gap-2" aria-label={t('payments.title')}>
					{payments.map((p) => (
						<li key={p.matchId} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
							<span className="grid gap-0.5">
								<span className="font-medium tabular-nums">
									{t('payments.line', {
										date: fmt.date(p.date),
										method: p.paymentMethod,
										amount: fmt.money(p.amount),
										payer: p.payer ?? t('payments.unknownPayer'),
									})}
								</span>
								<span className="text-muted-foreground">{t(`payments.how.${p.how}`, { code })}</span>
							</span>
							<AppForm method="post" action={action}>
								<input type="hidden" name="intent" value="unlink" />
								<input type="hidden" name="match" value={p.matchId} />
								<Button
									type="submit"
									variant="outline"
									size="sm"
									aria-label={t('payments.unlinkLabel', { amount: fmt.money(p.amount), date: fmt.date(p.date) })}
								>
									{t('payments.unlink')}
								</Button>
							</AppForm>
						</li>
					))}
				</ul>
			)}
		</section>
	)
}

/**
 * Linking a payment by hand: a search (a GET form: `find` in the address) among the
 * organization's payments matched to nothing, then a choice and a post.
 */
export function LinkPayment({ candidates, find, action }: { candidates: PaymentToLink[]; find: string; action: string }) {
	const { t } = useTranslation('invoices')
	const fmt = useFormat()
	return (
		<section aria-labelledby="invoice-link" className="grid gap-3 rounded-md border p-4">
			<div className="grid gap-1">
				<h2 id="invoice-link" className="font-semibold">
					{t('link.payment.title')}
				</h2>
				<p className="text-sm text-muted-foreground">{t('link.payment.description')}</p>
			</div>
			<Form method="get" role="search" className="flex flex-wrap items-end gap-2">
				<div className="grid min-w-0 flex-1 gap-2">
					<Label htmlFor="invoice-find">{t('link.payment.search')}</Label>
					<Input id="invoice-find" type="search" name="find" defaultValue={find} key={find} maxLength={200} />
				</div>
				<Button type="submit" variant="secondary">
					<SearchIcon aria-hidden="true" />
					{t('link.payment.searchButton')}
				</Button>
			</Form>
			{candidates.length === 0 ? (
				<p className="text-sm text-muted-foreground">{find ? t('link.payment.noneFound') : t('link.payment.none')}</p>
			) : (
				// A new search is a new form: its first payment chosen afresh.
				<AppForm key={candidates.map((p) => p.id).join()} method="post" action={action} className="grid gap-3">
					<input type="hidden" name="intent" value="link-payment" />
					<fieldset className="grid gap-1">
						<legend className="mb-1 text-sm font-medium">{t('link.payment.choose')}</legend>
						{candidates.map((p, i) => (
							<label key={p.id} className="flex items-start gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-accent">
								<input type="radio" name="transaction" value={p.id} defaultChecked={i === 0} required className="mt-1 size-4" />
								<span className="grid gap-0.5">
									<span className="tabular-nums">
										{t('payments.line', {
											date: fmt.date(p.date),
											method: p.paymentMethod,
											amount: fmt.money(p.amount),
											payer: p.payer ?? t('payments.unknownPayer'),
										})}
									</span>
									{p.description ? <span className="line-clamp-1 text-muted-foreground wrap-anywhere">{p.description}</span> : null}
								</span>
							</label>
						))}
					</fieldset>
					<Button type="submit" className="w-fit">
						{t('link.payment.submit')}
					</Button>
				</AppForm>
			)}
		</section>
	)
}

/**
 * Marking paid and voiding, each asked first on the page (`?confirm=mark-paid`, `?confirm=void`):
 * neither can be undone from the screens.
 */
export function InvoiceActions({ invoice, confirm, here }: { invoice: SentInvoice; confirm: string | null; here: string }) {
	const { t } = useTranslation('invoices')
	const fmt = useFormat()
	const owed = invoice.state === 'sent' || invoice.state === 'partly_paid' || invoice.state === 'overdue'
	const voidable = invoice.state !== 'void'
	if (!owed && !voidable) return null
	const question = (intent: 'mark-paid' | 'void') => (
		<section
			role="alertdialog"
			aria-labelledby={`confirm-${intent}`}
			className="grid gap-3 rounded-md border border-destructive/50 p-4 text-sm"
		>
			<h2 id={`confirm-${intent}`} className="font-semibold">
				{t(`actions.${intent}.question`, { number: invoice.number, balance: fmt.money(invoice.balance) })}
			</h2>
			<p>{t(`actions.${intent}.explain`, { balance: fmt.money(invoice.balance) })}</p>
			<div className="flex flex-wrap gap-2">
				<AppForm method="post" action={here}>
					<input type="hidden" name="intent" value={intent} />
					<Button type="submit" variant={intent === 'void' ? 'destructive' : 'default'}>
						{t(`actions.${intent}.confirm`)}
					</Button>
				</AppForm>
				<Button asChild variant="outline">
					<Link to={here}>{t('actions.keep')}</Link>
				</Button>
			</div>
		</section>
	)
	if (confirm === 'mark-paid' && owed) return question('mark-paid')
	if (confirm === 'void' && voidable) return question('void')
	return (
		<div className="flex flex-wrap gap-2">
			{owed ? (
				<Button asChild variant="outline">
					<Link to={`${here}?confirm=mark-paid`}>{t('actions.mark-paid.button')}</Link>
				</Button>
			) : null}
			{voidable ? (
				<Button asChild variant="outline">
					<Link to={`${here}?confirm=void`}>{t('actions.void.button')}</Link>
				</Button>
			) : null}
		</div>
	)
}
