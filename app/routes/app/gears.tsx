import { useTranslation } from '#app/lib/use-translation.ts'
import { redirect } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { catalogueT, localizeModule, localizeUpgrade } from '#app/.server/marketplace/catalogue-text.ts'
import { getGearHistory } from '#app/.server/marketplace/modules.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { readPage } from '#app/lib/table-params.ts'
import { dateIn } from '#app/lib/dates.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/gears'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('gears')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const history = await getGearHistory(user.userId, organization.id, readPage(new URL(request.url).searchParams))
	// A page past the end (an old link, a hand-made address) is not "no gear movements yet".
	if (history.rows.length === 0 && history.page > 1) throw redirect('/app/gears')
	// Module and upgrade names in the interface language (app/.server/marketplace/catalogue-text.ts).
	const t = catalogueT(context)
	const rows = history.rows.map(({ moduleId, upgradeId, ...r }) => ({
		...r,
		// The day in the organization's timezone, as every date on the screens.
		createdAt: dateIn(organization.timezone, new Date(r.createdAt)),
		moduleName: moduleId && r.moduleName ? localizeModule(t, { id: moduleId, name: r.moduleName }).name : r.moduleName,
		upgradeName: upgradeId && r.upgradeName ? localizeUpgrade(t, { id: upgradeId, name: r.upgradeName }).name : r.upgradeName,
	}))
	return { ...history, rows, gearsRemaining: organization.gearsRemaining, gearsOwned: organization.gearsOwned }
}

/** The ledger's columns, in order: the phone cards' labels. */
const LEDGER_COLUMNS = ['date', 'what', 'who', 'change', 'balance'] as const

export default function GearHistory({ loaderData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation(['marketplace', 'common'])
	const { rows, page, hasNext } = loaderData
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('history.title')}</h1>
				<p className="text-sm text-muted-foreground">
					{t('history.balance', {
						remaining: fmt.number(loaderData.gearsRemaining),
						owned: fmt.number(loaderData.gearsOwned),
					})}{' '}
					{t('price.noRecurring')}
				</p>
			</div>
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('history.ledger')}</h2>
					</CardTitle>
					<CardDescription>{t('history.description')}</CardDescription>
				</CardHeader>
				<CardContent className="grid gap-4">
					<Table cards={LEDGER_COLUMNS.map((c) => t(`history.columns.${c}`))}>
						<TableHeader>
							<TableRow>
								<TableHead scope="col">{t('history.columns.date')}</TableHead>
								<TableHead scope="col">{t('history.columns.what')}</TableHead>
								<TableHead scope="col">{t('history.columns.who')}</TableHead>
								<TableHead scope="col" className="text-right">
									{t('history.columns.change')}
								</TableHead>
								<TableHead scope="col" className="text-right">
									{t('history.columns.balance')}
								</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{rows.length === 0 ? (
								<TableRow>
									<TableCell colSpan={5} className="h-16 text-center text-muted-foreground">
										{t('history.empty')}
									</TableCell>
								</TableRow>
							) : (
								rows.map((row) => (
									<TableRow key={row.id}>
										<TableCell className="tabular-nums card-meta">{fmt.date(row.createdAt)}</TableCell>
										<TableCell className="card-wide">
											{t(`history.reasons.${row.reason}`)}
											{row.upgradeName || row.moduleName ? `: ${row.upgradeName ?? row.moduleName}` : ''}
										</TableCell>
										<TableCell className="card-meta">{row.actor ?? t('history.system')}</TableCell>
										<TableCell className="text-right tabular-nums card-title">
											{row.delta > 0 ? '+' : ''}
											{fmt.number(row.delta)}
										</TableCell>
										<TableCell className="text-right tabular-nums">{fmt.number(row.balanceAfter)}</TableCell>
									</TableRow>
								))
							)}
						</TableBody>
					</Table>
					<nav aria-label={t('history.pagination')} className="flex items-center justify-between gap-2">
						{page > 1 ? (
							<Button asChild variant="outline" size="sm">
								<Link to={`?page=${page - 1}`}>{t('history.previous')}</Link>
							</Button>
						) : (
							<span />
						)}
						<span className="text-sm text-muted-foreground">{t('history.page', { page })}</span>
						{hasNext ? (
							<Button asChild variant="outline" size="sm">
								<Link to={`?page=${page + 1}`}>{t('history.next')}</Link>
							</Button>
						) : (
							<span />
						)}
					</nav>
				</CardContent>
			</Card>
		</div>
	)
}
