import { data, Form } from 'react-router'
import { requireMember } from '#app/.server/auth/session.ts'
import { FIRST_TAX_YEAR, getTaxYear } from '#app/.server/reports/tax-year.ts'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { DownloadIcon } from '#app/components/icons.tsx'
import { ReportsTabs } from '#app/components/reports/reports-tabs.tsx'
import { NotTaxAdvice, TaxYearBody } from '#app/components/reports/tax-year.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/tax-year'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('reports')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const result = await getTaxYear(user.userId, organization.id, new URL(request.url).searchParams.get('year'), {
		timezone: organization.timezone,
	})
	if (!result.ok) {
		// A malformed or out-of-range year: the page again with the years it can show and why.
		const years = Array.from({ length: result.currentYear - FIRST_TAX_YEAR + 1 }, (_, i) => result.currentYear - i).slice(0, 10)
		return data({ ok: false as const, error: result.error, currentYear: result.currentYear, years, first: FIRST_TAX_YEAR }, { status: 400 })
	}
	return { ok: true as const, report: result.report }
}

export default function TaxYearRoute({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation(['tax-year', 'reports', 'common'])
	const year = loaderData.ok ? loaderData.report.year : loaderData.currentYear
	const years = loaderData.ok ? loaderData.report.years : loaderData.years
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="flex flex-wrap items-end justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('title', { year })}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				{loaderData.ok ? (
					<div className="flex flex-wrap gap-2">
						<Button asChild variant="outline">
							<a href={`/app/reports/tax-year.csv?year=${year}`} download>
								<DownloadIcon aria-hidden="true" />
								{t('export.csv')}
							</a>
						</Button>
						<Button asChild variant="outline">
							<a href={`/app/reports/tax-year.pdf?year=${year}`} download>
								<DownloadIcon aria-hidden="true" />
								{t('export.pdf')}
							</a>
						</Button>
					</div>
				) : null}
			</div>
			<ReportsTabs />
			<NotTaxAdvice />
			<Card className="gap-4 py-4">
				<CardContent className="px-4">
					<Form method="get" className="flex flex-wrap items-end gap-3" aria-describedby={loaderData.ok ? undefined : 'year-error'}>
						<div className="grid gap-1.5">
							<Label htmlFor="tax-year">{t('yearPicker.label')}</Label>
							<NativeSelect
								id="tax-year"
								name="year"
								defaultValue={String(year)}
								key={year}
								// With JavaScript a choice shows at once; without it the button sends it.
								onChange={(event) => event.currentTarget.form?.requestSubmit()}
							>
								{years.map((y) => (
									<option key={y} value={y}>
										{y}
									</option>
								))}
							</NativeSelect>
						</div>
						<Button type="submit" variant="secondary">
							{t('yearPicker.show')}
						</Button>
					</Form>
				</CardContent>
			</Card>
			{loaderData.ok ? <TaxYearBody report={loaderData.report} /> : <FormAlert ns="tax-year" code={loaderData.error} id="year-error" />}
		</div>
	)
}
