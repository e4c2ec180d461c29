import { Form } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

type RangeState =
	{ ok: true; range: { preset: string; from: string | null; to: string | null } } | { ok: false; error: string; from: string; to: string }

/**
 * The range of a Reports screen (the overview, the analytics): the presets as links, and a custom
 * range as a GET form (works without JavaScript; a bad range comes back with what was typed).
 * Words from reports.json (`range`), so every screen says the same. Printed, only the caption stays.
 */
export function RangePicker({ data, presets }: { data: RangeState; presets: readonly string[] }) {
	const { t } = useTranslation('reports')
	const fmt = useFormat()
	const active = data.ok ? data.range.preset : 'custom'
	const from = data.ok ? (data.range.from ?? '') : data.from
	const to = data.ok ? (data.range.to ?? '') : data.to
	const invalid = (fields: string[]) => (!data.ok && fields.includes(data.error) ? true : undefined)
	return (
		<Card className="gap-4 py-4 print:border-0 print:py-0 print:shadow-none">
			<CardContent className="grid gap-4 px-4 print:px-0">
				<nav aria-label={t('range.label')} className="flex flex-wrap gap-2 print:hidden">
					{presets.map((preset) => (
						<Button key={preset} asChild size="sm" variant={active === preset ? 'default' : 'outline'}>
							<Link to={`?range=${preset}`} aria-current={active === preset ? 'page' : undefined} preventScrollReset>
								{t(`range.presets.${preset}`)}
							</Link>
						</Button>
					))}
				</nav>
				<Form
					method="get"
					className="flex flex-wrap items-end gap-3 print:hidden"
					aria-label={t('range.customTitle')}
					aria-describedby={data.ok ? undefined : 'range-error'}
					preventScrollReset
				>
					<input type="hidden" name="range" value="custom" />
					<div className="grid gap-1.5">
						<Label htmlFor="range-from">{t('range.from')}</Label>
						<Input
							id="range-from"
							name="from"
							type="date"
							key={`from-${from}`}
							defaultValue={from}
							required
							aria-invalid={invalid(['invalidFrom', 'missingDates', 'fromAfterTo'])}
							className="w-44"
						/>
					</div>
					<div className="grid gap-1.5">
						<Label htmlFor="range-to">{t('range.to')}</Label>
						<Input
							id="range-to"
							name="to"
							type="date"
							key={`to-${to}`}
							defaultValue={to}
							required
							aria-invalid={invalid(['invalidTo', 'missingDates', 'fromAfterTo'])}
							className="w-44"
						/>
					</div>
					<Button type="submit" variant={active === 'custom' ? 'default' : 'secondary'}>
						{t('range.apply')}
					</Button>
				</Form>
				{data.ok ? (
					<p className="text-sm text-muted-foreground" data-testid="range-caption">
						{data.range.from && data.range.to
							? t('range.showing', { from: fmt.date(data.range.from), to: fmt.date(data.range.to) })
							: t('range.showingAll')}
					</p>
				) : null}
			</CardContent>
		</Card>
	)
}
