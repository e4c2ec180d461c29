import { lazy, Suspense, type ComponentProps } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { StaticMonthlyBars, StaticShareDonut } from './static-charts.tsx'

// recharts is loaded after hydration, in its own chunk: the page renders (and works) without it.
const MonthlyChart = lazy(() => import('./charts.tsx').then((m) => ({ default: m.MonthlyChart })))
const SmallMonthlyChart = lazy(() => import('./charts.tsx').then((m) => ({ default: m.SmallMonthlyChart })))
const ShareChart = lazy(() => import('./charts.tsx').then((m) => ({ default: m.ShareChart })))

/**
 * A chart in a box of fixed height labelled for assistive technology: drawn as plain SVG on the
 * server (`still`, what a page without JavaScript keeps), by recharts once the page is hydrated;
 * the figures themselves are in a table next to it.
 */
function ChartBox({
	label,
	height,
	empty,
	still,
	children,
}: {
	label: string
	height: number
	empty: boolean
	still: React.ReactNode
	children: React.ReactNode
}) {
	const hydrated = useHydrated()
	const { t } = useTranslation()
	// Nothing to draw: say so, rather than axes from $0 to $4 around nothing.
	if (empty) {
		return (
			<div
				className="flex w-full items-center justify-center rounded-md border border-dashed p-4 text-center text-sm text-muted-foreground"
				style={{ height }}
			>
				{t('chartEmpty')}
			</div>
		)
	}
	return (
		<figure role="img" aria-label={label} className="m-0 w-full min-w-0" style={{ height }}>
			{hydrated ? <Suspense fallback={still}>{children}</Suspense> : still}
		</figure>
	)
}

export function MonthlyChartSlot({ label, ...props }: ComponentProps<typeof MonthlyChart> & { label: string }) {
	return (
		<ChartBox
			label={label}
			height={props.height}
			empty={props.data.every((p) => p.amount === 0 && p.count === 0)}
			still={<StaticMonthlyBars data={props.data} />}
		>
			<MonthlyChart {...props} />
		</ChartBox>
	)
}

export function SmallMonthlyChartSlot({ label, ...props }: ComponentProps<typeof SmallMonthlyChart> & { label: string }) {
	return (
		<ChartBox
			label={label}
			height={props.height}
			empty={props.data.every((p) => p.amount === 0)}
			still={<StaticMonthlyBars data={props.data} />}
		>
			<SmallMonthlyChart {...props} />
		</ChartBox>
	)
}

export function ShareChartSlot({ label, ...props }: ComponentProps<typeof ShareChart> & { label: string }) {
	return (
		<ChartBox
			label={label}
			height={props.height}
			empty={props.data.every((p) => p.amount === 0)}
			still={<StaticShareDonut data={props.data} />}
		>
			<ShareChart {...props} />
		</ChartBox>
	)
}
