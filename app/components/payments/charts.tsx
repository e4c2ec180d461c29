/**
 * The recharts charts of the dashboard and reports. Loaded in the browser only (see
 * chart-slot.tsx); the tables next to them carry the same numbers for screen readers and for
 * pages without JavaScript.
 */
import {
	Bar,
	BarChart,
	CartesianGrid,
	ComposedChart,
	Legend,
	Line,
	Pie,
	PieChart,
	ResponsiveContainer,
	Tooltip,
	XAxis,
	YAxis,
} from 'recharts'
import { useFormat } from '#app/lib/use-format.ts'

export type MonthPoint = { label: string; amount: number; count: number }
export type SharePoint = { label: string; amount: number; share: number; fill: string }

const axis = { stroke: 'var(--muted-foreground)', fontSize: 12, tickLine: false, axisLine: false } as const
const tooltipStyle = {
	contentStyle: {
		background: 'var(--popover)',
		color: 'var(--popover-foreground)',
		border: '1px solid var(--border)',
		borderRadius: 8,
		fontSize: 12,
	},
	cursor: { fill: 'var(--muted)', opacity: 0.5 },
} as const

/** Amount per month as bars; with `countLabel`, the count as a line on a second axis. */
export function MonthlyChart({
	data,
	height,
	amountLabel,
	countLabel,
}: {
	data: MonthPoint[]
	height: number
	amountLabel: string
	countLabel?: string
}) {
	const fmt = useFormat()
	return (
		<ResponsiveContainer width="100%" height={height}>
			<ComposedChart data={data} margin={{ top: 8, right: countLabel ? 8 : 0, bottom: 0, left: 0 }} accessibilityLayer={false}>
				<CartesianGrid vertical={false} stroke="var(--border)" />
				<XAxis dataKey="label" {...axis} interval="preserveStartEnd" minTickGap={8} />
				<YAxis yAxisId="amount" {...axis} width="auto" tickFormatter={(v: number) => fmt.compactMoney(v)} />
				{countLabel ? <YAxis yAxisId="count" orientation="right" {...axis} width="auto" allowDecimals={false} /> : null}
				<Tooltip {...tooltipStyle} formatter={(value, name) => (name === amountLabel ? fmt.money(Number(value)) : String(value))} />
				<Bar yAxisId="amount" dataKey="amount" name={amountLabel} fill="var(--chart-1)" radius={[4, 4, 0, 0]} maxBarSize={48} />
				{countLabel ? <Legend verticalAlign="top" align="right" height={24} iconSize={10} wrapperStyle={{ fontSize: 12 }} /> : null}
				{countLabel ? (
					<Line yAxisId="count" dataKey="count" name={countLabel} stroke="var(--chart-2)" strokeWidth={2} dot={false} type="monotone" />
				) : null}
			</ComposedChart>
		</ResponsiveContainer>
	)
}

/** The last months' amounts as plain bars (the dashboard's small chart). */
export function SmallMonthlyChart({ data, height, amountLabel }: { data: MonthPoint[]; height: number; amountLabel: string }) {
	const fmt = useFormat()
	return (
		<ResponsiveContainer width="100%" height={height}>
			<BarChart data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }} accessibilityLayer={false}>
				<XAxis dataKey="label" {...axis} interval="preserveStartEnd" minTickGap={4} />
				<YAxis {...axis} width="auto" tickFormatter={(v: number) => fmt.compactMoney(v)} />
				<Tooltip {...tooltipStyle} formatter={(value) => fmt.money(Number(value))} />
				<Bar dataKey="amount" name={amountLabel} fill="var(--chart-1)" radius={[4, 4, 0, 0]} maxBarSize={32} />
			</BarChart>
		</ResponsiveContainer>
	)
}

/** Each category's share of the amount, as a donut. */
export function ShareChart({ data, height }: { data: SharePoint[]; height: number }) {
	const fmt = useFormat()
	return (
		<ResponsiveContainer width="100%" height={height}>
			<PieChart accessibilityLayer={false}>
				<Pie
					data={data}
					dataKey="amount"
					nameKey="label"
					innerRadius="55%"
					outerRadius="85%"
					paddingAngle={2}
					stroke="var(--card)"
					isAnimationActive={false}
				/>
				<Tooltip {...tooltipStyle} formatter={(value) => fmt.money(Number(value))} />
			</PieChart>
		</ResponsiveContainer>
	)
}
