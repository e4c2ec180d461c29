import { lazy, Suspense, type ComponentProps } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Skeleton } from '#app/components/ui/skeleton.tsx'
import { useHydrated } from '#app/lib/use-hydrated.ts'

// recharts is loaded after hydration, in its own chunk: the page renders (and works) without it.
const MonthlyChart = lazy(() => import('./charts.tsx').then((m) => ({ default: m.MonthlyChart })))
const SmallMonthlyChart = lazy(() => import('./charts.tsx').then((m) => ({ default: m.SmallMonthlyChart })))
const ShareChart = lazy(() => import('./charts.tsx').then((m) => ({ default: m.ShareChart })))

/**
 * A chart drawn in the browser only, in a box of fixed height labelled for assistive
 * technology; the figures themselves are in a table next to it.
 */
function ChartBox({ label, height, empty, children }: { label: string; height: number; empty: boolean; children: React.ReactNode }) {
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
			{hydrated ? (
				<Suspense fallback={<Skeleton className="size-full" />}>{children}</Suspense>
			) : (
				<div aria-hidden="true" className="size-full rounded-md bg-muted/40" />
			)}
		</figure>
	)
}

export function MonthlyChartSlot({ label, ...props }: ComponentProps<typeof MonthlyChart> & { label: string }) {
	return (
		<ChartBox label={label} height={props.height} empty={props.data.every((p) => p.amount === 0 && p.count === 0)}>
			<MonthlyChart {...props} />
		</ChartBox>
	)
}

export function SmallMonthlyChartSlot({ label, ...props }: ComponentProps<typeof SmallMonthlyChart> & { label: string }) {
	return (
		<ChartBox label={label} height={props.height} empty={props.data.every((p) => p.amount === 0)}>
			<SmallMonthlyChart {...props} />
		</ChartBox>
	)
}

export function ShareChartSlot({ label, ...props }: ComponentProps<typeof ShareChart> & { label: string }) {
	return (
		<ChartBox label={label} height={props.height} empty={props.data.every((p) => p.amount === 0)}>
			<ShareChart {...props} />
		</ChartBox>
	)
}
