/**
 * The parts of the Advanced Analytics screen (docs/product.md, Reports: Advanced Analytics). Each
 * chart is plain SVG drawn on the server, so it shows without JavaScript, and is hidden from
 * assistive technology but labelled as one image; the table under it carries every figure.
 * Numbers, amounts and months are written in the viewer's language.
 */
import type { Analytics } from '#app/.server/reports/analytics.ts'
import type { PaymentMethod } from '#app/.server/db/types.ts'
import { useMonthLabel } from '#app/components/payments/month-label.ts'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCaption, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** Each rail's colour, in the charts and their legends. */
const METHOD_COLORS: Record<PaymentMethod, string> = {
	Zelle: 'var(--chart-1)',
	Venmo: 'var(--chart-2)',
	CashApp: 'var(--chart-3)',
	PayPal: 'var(--chart-4)',
	'Wire Transfer': 'var(--chart-5)',
	Other: 'var(--muted-foreground)',
}

/** The phone layout of the wide tables: a size smaller, narrower cells; they scroll inside their own box. */
const COMPACT = '[&_th]:whitespace-normal max-md:text-xs max-md:[&_td]:px-1 max-md:[&_th]:px-1'

function Section({ id, title, description, children }: { id: string; title: string; description: string; children: React.ReactNode }) {
	return (
		<Card aria-labelledby={id} className="min-w-0">
			<CardHeader>
				<CardTitle>
					<h2 id={id}>{title}</h2>
				</CardTitle>
				<CardDescription>{description}</CardDescription>
			</CardHeader>
			<CardContent className="grid min-w-0 grid-cols-1 gap-4">{children}</CardContent>
		</Card>
	)
}

function Legend({ items }: { items: Array<{ label: string; color: string }> }) {
	return (
		<ul aria-hidden="true" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
			{items.map((item) => (
				<li key={item.label} className="flex items-center gap-1.5">
					<span className="size-2.5 rounded-full" style={{ background: item.color }} />
					{item.label}
				</li>
			))}
		</ul>
	)
}

/** The first, middle and last month named under a chart. */
function MonthAxis({ labels }: { labels: string[] }) {
	const named = new Set([0, Math.floor((labels.length - 1) / 2), labels.length - 1])
	return (
		<div className="grid text-xs text-muted-foreground" style={{ gridTemplateColumns: `repeat(${labels.length}, minmax(0, 1fr))` }}>
			{labels.map((label, i) => (
				<span key={label} className="truncate text-center">
					{named.has(i) ? label : ''}
				</span>
			))}
		</div>
	)
}

function percentOrDash(fmt: ReturnType<typeof useFormat>, value: number | null, none: string) {
	return value === null ? <span title={none}>—</span> : fmt.percent(value)
}

// ---------------------------------------------------------------------------------------------

export function CohortsSection({ analytics }: { analytics: Analytics }) {
	const { t } = useTranslation('analytics')
	const fmt = useFormat()
	const monthLabel = useMonthLabel()
	const offsets = Array.from({ length: 12 }, (_, i) => i + 1)
	return (
		<Section id="cohorts-title" title={t('cohorts.title')} description={t('cohorts.description')}>
			{analytics.cohorts.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('cohorts.none')}</p>
			) : (
				<Table data-testid="cohort-table" scrollLabel={t('cohorts.title')} className={COMPACT}>
					<TableCaption className="sr-only">{t('cohorts.title')}</TableCaption>
					<TableHeader>
						<TableRow>
							<TableHead scope="col">{t('cohorts.cohort')}</TableHead>
							<TableHead scope="col" className="text-right">
								{t('cohorts.clients')}
							</TableHead>
							{offsets.map((n) => (
								<TableHead key={n} scope="col" className="text-right">
									{t('cohorts.month', { n })}
								</TableHead>
							))}
						</TableRow>
					</TableHeader>
					<TableBody>
						{analytics.cohorts.map((cohort) => (
							<TableRow key={cohort.month}>
								<TableHead scope="row" className="font-normal whitespace-nowrap">
									{monthLabel(cohort.month)}
								</TableHead>
								<TableCell className="text-right tabular-nums">{fmt.number(cohort.clients)}</TableCell>
								{offsets.map((n) => {
									const count = cohort.retained[n] ?? null
									if (count === null) {
										return (
											<TableCell key={n} className="text-right text-muted-foreground">
												<span aria-hidden="true">·</span>
												<span className="sr-only">{t('cohorts.notYet')}</span>
											</TableCell>
										)
									}
									const share = cohort.clients > 0 ? count / cohort.clients : 0
									return (
										<TableCell
											key={n}
											className="text-right tabular-nums"
											// The shade says the share at a glance; the text says it exactly.
											style={{ background: `color-mix(in oklch, var(--chart-1) ${Math.round(share * 35)}%, transparent)` }}
										>
											<span className="block">{fmt.number(count)}</span>
											<span className="block text-xs text-muted-foreground">{fmt.percent(share)}</span>
										</TableCell>
									)
								})}
							</TableRow>
						))}
					</TableBody>
				</Table>
			)}
		</Section>
	)
}

// ---------------------------------------------------------------------------------------------

export function MethodTrendsSection({ analytics }: { analytics: Analytics }) {
	const { t } = useTranslation(['analytics', 'transactions'])
	const fmt = useFormat()
	const monthLabel = useMonthLabel()
	const cell = new Map(analytics.methodMonths.map((m) => [`${m.month}|${m.method}`, m]))
	const perMonth = analytics.months.map((month) => analytics.methods.map((method) => Number(cell.get(`${month}|${method}`)?.amount ?? 0)))
	const max = Math.max(0, ...perMonth.map((amounts) => amounts.reduce((a, b) => a + b, 0)))
	const methodTotals = analytics.methods.map((method) =>
		analytics.methodMonths.filter((m) => m.method === method).reduce((sum, m) => sum + Number(m.amount), 0),
	)
	return (
		<Section id="methods-title" title={t('methods.title')} description={t('methods.description')}>
			<figure role="img" aria-label={t('methods.chartLabel')} className="m-0 grid h-56 w-full min-w-0 grid-rows-[1fr_auto_auto] gap-1">
				<svg aria-hidden="true" className="size-full min-h-0" viewBox={`0 0 ${perMonth.length * 10} 100`} preserveAspectRatio="none">
					{perMonth.map((amounts, i) => {
						let y = 100
						return amounts.map((amount, j) => {
							const h = max > 0 ? (amount / max) * 96 : 0
							y -= h
							return h > 0 ? (
								<rect key={`${i}-${j}`} x={i * 10 + 2} y={y} width={6} height={h} fill={METHOD_COLORS[analytics.methods[j]!]} />
							) : null
						})
					})}
				</svg>
				<MonthAxis labels={analytics.months.map((m) => monthLabel(m))} />
				<Legend items={analytics.methods.map((m) => ({ label: t(`transactions:methods.${m}`), color: METHOD_COLORS[m] }))} />
			</figure>
			<Table data-testid="method-table" scrollLabel={t('methods.title')} className={COMPACT}>
				<TableCaption className="sr-only">{t('methods.title')}</TableCaption>
				<TableHeader>
					<TableRow>
						<TableHead scope="col">{t('methods.month')}</TableHead>
						{analytics.methods.map((method) => (
							<TableHead key={method} scope="col" className="text-right">
								{t(`transactions:methods.${method}`)}
							</TableHead>
						))}
						<TableHead scope="col" className="text-right">
							{t('methods.total')}
						</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{analytics.months.map((month, i) => (
						<TableRow key={month}>
							<TableHead scope="row" className="font-normal whitespace-nowrap">
								{monthLabel(month)}
							</TableHead>
							{analytics.methods.map((method) => (
								<TableCell key={method} className="text-right tabular-nums">
									{fmt.money(cell.get(`${month}|${method}`)?.amount ?? '0')}
								</TableCell>
							))}
							<TableCell className="text-right tabular-nums">{fmt.money(perMonth[i]!.reduce((a, b) => a + b, 0))}</TableCell>
						</TableRow>
					))}
				</TableBody>
				<TableFooter>
					<TableRow>
						<TableHead scope="row">{t('methods.total')}</TableHead>
						{methodTotals.map((amount, j) => (
							<TableCell key={analytics.methods[j]} className="text-right tabular-nums">
								{fmt.money(amount)}
							</TableCell>
						))}
						<TableCell className="text-right tabular-nums">{fmt.money(analytics.totals.amount)}</TableCell>
					</TableRow>
				</TableFooter>
			</Table>
		</Section>
	)
}

// ---------------------------------------------------------------------------------------------

export function YearOverYearSection({ analytics }: { analytics: Analytics }) {
	const { t } = useTranslation('analytics')
	const fmt = useFormat()
	const monthLabel = useMonthLabel()
	const rows = analytics.yearOverYear
	const max = Math.max(0, ...rows.flatMap((r) => [Number(r.amount), Number(r.previousAmount)]))
	const labels = [
		t('yoy.month'),
		t('yoy.amount'),
		t('yoy.previousAmount'),
		t('yoy.amountChange'),
		t('yoy.count'),
		t('yoy.previousCount'),
		t('yoy.countChange'),
	]
	return (
		<Section id="yoy-title" title={t('yoy.title')} description={t('yoy.description')}>
			<figure role="img" aria-label={t('yoy.chartLabel')} className="m-0 grid h-56 w-full min-w-0 grid-rows-[1fr_auto_auto] gap-1">
				<svg aria-hidden="true" className="size-full min-h-0" viewBox={`0 0 ${rows.length * 10} 100`} preserveAspectRatio="none">
					{rows.map((r, i) => {
						const now = max > 0 ? (Number(r.amount) / max) * 96 : 0
						const before = max > 0 ? (Number(r.previousAmount) / max) * 96 : 0
						return (
							<g key={r.month}>
								<rect x={i * 10 + 1.5} y={100 - before} width={3.5} height={before} fill="var(--chart-3)" />
								<rect x={i * 10 + 5} y={100 - now} width={3.5} height={now} fill="var(--chart-1)" />
							</g>
						)
					})}
				</svg>
				<MonthAxis labels={rows.map((r) => monthLabel(r.month))} />
				<Legend
					items={[
						{ label: t('yoy.previous'), color: 'var(--chart-3)' },
						{ label: t('yoy.current'), color: 'var(--chart-1)' },
					]}
				/>
			</figure>
			<Table data-testid="yoy-table" cards={[null, ...labels.slice(1)]} scrollLabel={t('yoy.title')} className={COMPACT}>
				<TableCaption className="sr-only">{t('yoy.title')}</TableCaption>
				<TableHeader>
					<TableRow>
						{labels.map((label, i) => (
							<TableHead key={label} scope="col" className={i > 0 ? 'text-right' : undefined}>
								{label}
							</TableHead>
						))}
					</TableRow>
				</TableHeader>
				<TableBody>
					{rows.map((r) => (
						<TableRow key={r.month}>
							<TableHead scope="row" className="card-title font-normal whitespace-nowrap">
								{monthLabel(r.month, { long: true })}
							</TableHead>
							<TableCell className="text-right tabular-nums">{fmt.money(r.amount)}</TableCell>
							<TableCell className="text-right tabular-nums">{fmt.money(r.previousAmount)}</TableCell>
							<TableCell className="text-right tabular-nums">{percentOrDash(fmt, r.amountChange, t('yoy.noChange'))}</TableCell>
							<TableCell className="text-right tabular-nums">{fmt.number(r.count)}</TableCell>
							<TableCell className="text-right tabular-nums">{fmt.number(r.previousCount)}</TableCell>
							<TableCell className="text-right tabular-nums">{percentOrDash(fmt, r.countChange, t('yoy.noChange'))}</TableCell>
						</TableRow>
					))}
				</TableBody>
			</Table>
		</Section>
	)
}

// ---------------------------------------------------------------------------------------------

export function TopClientsSection({ analytics }: { analytics: Analytics }) {
	const { t } = useTranslation('analytics')
	const fmt = useFormat()
	const labels = [t('top.client'), t('top.count'), t('top.amount'), t('top.share'), t('top.lastPayment')]
	return (
		<Section id="top-title" title={t('top.title')} description={t('top.description')}>
			{analytics.topClients.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('top.none')}</p>
			) : (
				<Table data-testid="top-clients-table" cards={[null, ...labels.slice(1)]} scrollLabel={t('top.title')} className={COMPACT}>
					<TableCaption className="sr-only">{t('top.title')}</TableCaption>
					<TableHeader>
						<TableRow>
							{labels.map((label, i) => (
								<TableHead key={label} scope="col" className={i > 0 ? 'text-right' : undefined}>
									{label}
								</TableHead>
							))}
						</TableRow>
					</TableHeader>
					<TableBody>
						{analytics.topClients.map((c) => (
							<TableRow key={c.clientId}>
								<TableHead scope="row" className="card-title font-normal">
									{c.name || t('top.unnamed')}
								</TableHead>
								<TableCell className="text-right tabular-nums">{fmt.number(c.count)}</TableCell>
								<TableCell className="text-right tabular-nums">{fmt.money(c.amount)}</TableCell>
								<TableCell className="text-right tabular-nums">{fmt.percent(c.share)}</TableCell>
								<TableCell className="text-right tabular-nums">{c.lastPayment ? fmt.date(c.lastPayment) : '—'}</TableCell>
							</TableRow>
						))}
					</TableBody>
				</Table>
			)}
		</Section>
	)
}
