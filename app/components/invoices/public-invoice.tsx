import { useState } from 'react'
import type { InvoiceView } from '#app/.server/invoices/view.ts'
import { MAIN_ID } from '#app/components/shell/skip-link.tsx'
import { languageNames, supportedLanguages, type Language } from '#app/lib/i18n.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'

/**
 * An invoice's public page (/i/{token}; docs/product.md, Invoicing › The client's page, PDF and
 * mail): everything comes written in the page's language from the server (`InvoiceView`, the
 * same view the PDF is drawn from), so the page reads the same with or without JavaScript and
 * loads no translations. A phone sees one column (quantity × unit price under each description);
 * printed, it is the invoice alone, black on white, with every column.
 */
export function PublicInvoice({
	view,
	pdfHref,
	languageHref,
}: {
	view: InvoiceView
	pdfHref: string
	languageHref: Record<Language, string>
}) {
	return (
		<div lang={view.language} className="min-h-svh bg-muted/30 print:bg-white print:text-black">
			{/* The printed page's margins: A4 and Letter both take the text column. */}
			<style>{'@page { margin: 14mm 12mm; }'}</style>
			<header className="border-b bg-background print:hidden">
				<div className="mx-auto flex max-w-3xl items-center gap-3 px-4 py-3">
					<Brand view={view} />
					<LanguageMenu view={view} languageHref={languageHref} />
				</div>
			</header>
			<main id={MAIN_ID} tabIndex={-1} className="mx-auto grid max-w-3xl gap-4 px-4 py-6 print:max-w-none print:p-0">
				<article className="grid gap-5 rounded-lg border bg-background p-4 sm:p-6 print:border-0 print:p-0">
					<div className="hidden print:flex">
						<Brand view={view} />
					</div>
					<div className="flex flex-wrap items-baseline justify-between gap-2">
						<h1 className="text-2xl font-semibold">{view.title}</h1>
						<p className={`badge ${STATE_TONE[view.state]} print:border print:border-black print:bg-white print:text-black`}>
							{view.stateLabel}
						</p>
					</div>
					{view.banner ? (
						<p
							role="status"
							className={`rounded-md border p-3 text-sm font-medium ${BANNER_TONE[view.state]} print:border-black print:bg-white print:text-black`}
						>
							{view.banner}
						</p>
					) : null}
					<dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
						{view.facts.map((fact) => (
							<div key={fact.label} className="grid gap-0.5">
								<dt className="text-xs text-muted-foreground print:text-black">{fact.label}</dt>
								<dd className="font-medium break-words">{fact.value}</dd>
							</div>
						))}
					</dl>
					<Lines view={view} />
					<Totals view={view} />
					{view.notes ? (
						<section aria-labelledby="invoice-notes" className="grid gap-1">
							<h2 id="invoice-notes" className="text-sm font-semibold">
								{view.notes.label}
							</h2>
							<p className="text-sm break-words whitespace-pre-line">{view.notes.text}</p>
						</section>
					) : null}
					{view.pay ? <HowToPay pay={view.pay} labels={view.labels} /> : null}
				</article>
				<div className="flex flex-wrap gap-3 print:hidden">
					<a href={pdfHref} download className="btn min-h-11 bg-primary px-4 text-primary-foreground shadow-xs hover:bg-primary/90">
						{view.labels.download}
					</a>
					<PrintButton label={view.labels.print} />
				</div>
			</main>
		</div>
	)
}

const STATE_TONE: Record<InvoiceView['state'], string> = {
	sent: 'border-sky-300 bg-sky-50 text-sky-900',
	partly_paid: 'border-amber-300 bg-amber-50 text-amber-900',
	paid: 'border-green-300 bg-green-50 text-green-900',
	overdue: 'border-red-300 bg-red-50 text-red-900',
	void: 'border-zinc-300 bg-zinc-100 text-zinc-800',
}
const BANNER_TONE = STATE_TONE

function Brand({ view }: { view: InvoiceView }) {
	const { name, logoUrl } = view.organization
	return (
		<div className="flex min-w-0 flex-1 items-center gap-3">
			{logoUrl ? (
				<img src={logoUrl} alt="" width={100} height={40} className="h-10 w-auto max-w-40 rounded-md object-contain" />
			) : (
				<span
					aria-hidden="true"
					className="flex size-10 shrink-0 items-center justify-center rounded-md bg-primary text-lg font-bold text-primary-foreground print:hidden"
				>
					{name.slice(0, 1).toUpperCase()}
				</span>
			)}
			<p className="min-w-0 truncate font-semibold">
				<span className="sr-only">{view.labels.from}: </span>
				{name}
			</p>
		</div>
	)
}

/** The page in another language: plain links (`?lng=`), so it works without JavaScript and without a cookie. */
function LanguageMenu({ view, languageHref }: { view: InvoiceView; languageHref: Record<Language, string> }) {
	return (
		<nav aria-label={view.labels.language}>
			<ul className="flex gap-1 text-sm">
				{supportedLanguages.map((lng) => (
					<li key={lng}>
						<a
							href={languageHref[lng]}
							lang={lng}
							hrefLang={lng}
							aria-current={lng === view.language ? 'true' : undefined}
							className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-2 hover:bg-accent aria-[current]:font-semibold aria-[current]:underline"
						>
							<span aria-hidden="true">{lng === 'pt-BR' ? 'PT' : lng.toUpperCase()}</span>
							<span className="sr-only">{languageNames[lng]}</span>
						</a>
					</li>
				))}
			</ul>
		</nav>
	)
}

function Lines({ view }: { view: InvoiceView }) {
	const c = view.columns
	return (
		<table className="w-full border-collapse text-sm">
			<caption className="sr-only">{view.labels.lines}</caption>
			<thead>
				<tr className="border-b text-left text-xs text-muted-foreground print:text-black">
					<th scope="col" className="py-2 pr-2 font-medium">
						{c.description}
					</th>
					<th scope="col" className="hidden py-2 pr-2 text-right font-medium sm:table-cell print:table-cell">
						{c.quantity}
					</th>
					<th scope="col" className="hidden py-2 pr-2 text-right font-medium sm:table-cell print:table-cell">
						{c.unitPrice}
					</th>
					<th scope="col" className="py-2 text-right font-medium">
						{c.amount}
					</th>
				</tr>
			</thead>
			<tbody>
				{view.lines.map((line, i) => (
					<tr key={i} className="border-b align-top last:border-0 print:break-inside-avoid">
						<td className="py-2 pr-2 break-words">
							{line.description}
							<span className="block text-xs text-muted-foreground sm:hidden print:hidden">
								{line.quantity} × {line.unitPrice}
							</span>
						</td>
						<td className="hidden py-2 pr-2 text-right whitespace-nowrap tabular-nums sm:table-cell print:table-cell">{line.quantity}</td>
						<td className="hidden py-2 pr-2 text-right whitespace-nowrap tabular-nums sm:table-cell print:table-cell">{line.unitPrice}</td>
						<td className="py-2 text-right whitespace-nowrap tabular-nums">{line.amount}</td>
					</tr>
				))}
			</tbody>
		</table>
	)
}

function Totals({ view }: { view: InvoiceView }) {
	return (
		<section aria-label={view.labels.totals} className="flex justify-end">
			<dl className="grid w-full max-w-xs grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
				{view.totals.map((total) => (
					<div key={total.label} className={`contents ${total.strong ? 'text-base font-semibold' : ''}`}>
						<dt className={total.strong ? 'border-t pt-1' : undefined}>{total.label}</dt>
						<dd className={`text-right whitespace-nowrap tabular-nums ${total.strong ? 'border-t pt-1' : ''}`}>{total.value}</dd>
					</div>
				))}
			</dl>
		</section>
	)
}

/** How to pay: the ways the organization takes, the code to write in the payment's memo (as a booking's deposit shows it). */
function HowToPay({ pay, labels }: { pay: NonNullable<InvoiceView['pay']>; labels: InvoiceView['labels'] }) {
	return (
		<section
			aria-labelledby="invoice-pay"
			className="grid gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 print:border-black print:bg-white print:text-black"
		>
			<h2 id="invoice-pay" className="text-lg font-semibold">
				{pay.heading}
			</h2>
			<p>{pay.none ?? pay.intro}</p>
			{pay.ways.length ? (
				<ul className="grid gap-2">
					{pay.ways.map((way) => (
						<li key={way.kind}>
							{way.href ? (
								<a
									href={way.href}
									target="_blank"
									rel="noreferrer"
									className="inline-flex min-h-11 items-center rounded-md border bg-white px-4 py-2 break-all underline-offset-2 hover:underline print:min-h-0 print:border-0 print:p-0"
								>
									{way.label}
									<span className="hidden print:inline">: {way.href}</span>
								</a>
							) : (
								<span className="inline-flex min-h-11 items-center rounded-md border bg-white px-4 py-2 break-all print:min-h-0 print:border-0 print:p-0">
									{way.label}
								</span>
							)}
						</li>
					))}
				</ul>
			) : null}
			<div className="grid gap-1">
				<p id="invoice-code-label" className="text-sm font-medium">
					{pay.codeLabel}
				</p>
				<div className="flex flex-wrap items-center gap-3">
					<code
						aria-describedby="invoice-code-label"
						data-testid="invoice-code"
						className="rounded-md border border-amber-400 bg-white px-4 py-2 font-mono text-3xl font-bold tracking-[0.2em] break-all select-all print:border-black"
					>
						{pay.code}
					</code>
					<CopyButton text={pay.code} labels={labels} />
				</div>
				<p className="text-sm">{pay.putInMemo}</p>
			</div>
		</section>
	)
}

/** Copies the code once scripts run (without them, the code selects on one tap). */
function CopyButton({ text, labels }: { text: string; labels: InvoiceView['labels'] }) {
	const hydrated = useHydrated()
	const [copied, setCopied] = useState(false)
	if (!hydrated) return null
	return (
		<button
			type="button"
			className="min-h-11 rounded-md border bg-white px-4 py-2 text-sm print:hidden"
			onClick={() => {
				void navigator.clipboard.writeText(text).then(
					() => {
						setCopied(true)
						setTimeout(() => setCopied(false), 2000)
					},
					() => setCopied(false),
				)
			}}
		>
			<span aria-live="polite">{copied ? labels.copied : labels.copy}</span>
		</button>
	)
}

/** Prints the page (with JavaScript; without it, the browser's own Print does the same, the print styles apply). */
function PrintButton({ label }: { label: string }) {
	const hydrated = useHydrated()
	if (!hydrated) return null
	return (
		<button type="button" onClick={() => window.print()} className="btn min-h-11 border bg-background px-4 shadow-xs hover:bg-accent">
			{label}
		</button>
	)
}
