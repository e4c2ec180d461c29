import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { refusedParam } from '#app/.server/booking/public/bookings.ts'
import { stepUrl } from '#app/.server/booking/public/choices.ts'
import { resolveWizard } from '#app/.server/booking/public/wizard.ts'
import { RefusedNotice, STEP_HEADING, WizardProgress } from '#app/components/booking/book-wizard.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { cn } from '#app/lib/utils.ts'
import type { Route } from './+types/service'

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const w = await resolveWizard({ request, context, slug: params.orgSlug }, 'service')
	const { choices } = w
	return {
		services: w.catalogue.services,
		selected: w.service?.id ?? null,
		linkOf: Object.fromEntries(
			w.catalogue.services.map((s) => [
				s.id,
				stepUrl(w.org.slug, 'slot', { tz: choices.tz, reschedule: choices.reschedule, service: s.id }),
			]),
		),
		refused: refusedParam(request),
	}
}

export default function ServiceStep({ loaderData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation('book')
	const { services, selected, linkOf, refused } = loaderData
	return (
		<>
			<WizardProgress step="service" />
			<h1 className={STEP_HEADING}>{t('service.heading')}</h1>
			<RefusedNotice code={refused} />
			{services.length === 0 ? (
				<p className="rounded-md border bg-background p-6 text-center text-muted-foreground">{t('service.empty')}</p>
			) : (
				<ul className="grid gap-3">
					{services.map((s) => (
						<li key={s.id}>
							<Link
								to={linkOf[s.id]!}
								aria-current={s.id === selected ? 'true' : undefined}
								className={cn(
									'grid gap-1 rounded-lg border bg-background p-4 hover:border-[var(--brand)]',
									s.id === selected && 'border-[var(--brand)] ring-2 ring-[var(--brand)]',
								)}
							>
								<span className="flex items-center gap-2 font-medium">
									<span aria-hidden="true" className="size-3 rounded-full" style={{ backgroundColor: s.color }} />
									{s.name}
								</span>
								{s.description ? <span className="text-sm text-muted-foreground">{s.description}</span> : null}
								<span className="flex gap-4 text-sm">
									<span>{t('minutes', { count: s.durationMinutes })}</span>
									<span>{fmt.money(s.price)}</span>
								</span>
							</Link>
						</li>
					))}
				</ul>
			)}
		</>
	)
}
