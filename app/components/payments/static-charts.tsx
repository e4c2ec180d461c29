/**
 * The charts as plain SVG, drawn on the server: what a page shows before (or without) JavaScript,
 * until recharts (charts.tsx) takes their place. No axes or tooltips: the tables next to them
 * carry the figures.
 */
import type { MonthPoint, SharePoint } from './charts.tsx'

/** Bars of the months' amounts, scaled to the largest, with the first, middle and last month named. */
export function StaticMonthlyBars({ data }: { data: MonthPoint[] }) {
	const max = Math.max(...data.map((p) => p.amount), 0)
	const named = new Set([0, Math.floor((data.length - 1) / 2), data.length - 1])
	return (
		<div aria-hidden="true" className="flex size-full flex-col gap-1">
			<svg className="min-h-0 w-full flex-1" viewBox={`0 0 ${data.length * 10} 100`} preserveAspectRatio="none">
				{data.map((p, i) => {
					const h = max > 0 ? Math.max((p.amount / max) * 96, p.amount > 0 ? 1 : 0) : 0
					return <rect key={p.label} x={i * 10 + 2} y={100 - h} width={6} height={h} rx={1} fill="var(--chart-1)" />
				})}
			</svg>
			<div className="grid text-xs text-muted-foreground" style={{ gridTemplateColumns: `repeat(${data.length}, minmax(0, 1fr))` }}>
				{data.map((p, i) => (
					<span key={p.label} className="truncate text-center">
						{named.has(i) ? p.label : ''}
					</span>
				))}
			</div>
		</div>
	)
}

/** Each share as an arc of a donut, in the order and colours of the recharts donut. */
export function StaticShareDonut({ data }: { data: SharePoint[] }) {
	const total = data.reduce((sum, p) => sum + p.amount, 0)
	const circumference = 2 * Math.PI * 40
	const lengths = data.map((p) => (total > 0 ? (p.amount / total) * circumference : 0))
	// Each arc starts where the ones before it end.
	const starts = lengths.map((_, i) => lengths.slice(0, i).reduce((sum, l) => sum + l, 0))
	return (
		<svg aria-hidden="true" className="size-full" viewBox="0 0 100 100">
			<g transform="rotate(-90 50 50)">
				{data.map((p, i) => (
					<circle
						key={p.label}
						cx={50}
						cy={50}
						r={40}
						fill="none"
						stroke={p.fill}
						strokeWidth={14}
						strokeDasharray={`${lengths[i]} ${circumference - lengths[i]!}`}
						strokeDashoffset={-starts[i]!}
					/>
				))}
			</g>
		</svg>
	)
}
