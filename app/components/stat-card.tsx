import type { IconComponent } from '#app/components/icons.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'

/** One figure of a summary row: a title, the value, and a line of context under it. */
export function StatCard({ title, value, hint, icon: Icon }: { title: string; value: string; hint?: string; icon: IconComponent }) {
	return (
		<Card className="gap-2" role="group" aria-label={title}>
			<CardHeader className="flex flex-row items-center justify-between gap-2">
				<CardTitle className="text-sm font-medium text-muted-foreground">
					<h2>{title}</h2>
				</CardTitle>
				<Icon className="size-4 text-muted-foreground" aria-hidden="true" />
			</CardHeader>
			<CardContent className="grid gap-1">
				<p className="text-2xl font-semibold tabular-nums" data-testid="stat-value">
					{value}
				</p>
				{hint ? <CardDescription className="text-xs">{hint}</CardDescription> : null}
			</CardContent>
		</Card>
	)
}
