import { useNavigation } from 'react-router'
import { CreditCardIcon, UsersIcon, WalletIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { StatCard } from '#app/components/stat-card.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import type { OwedGroup, OwedLine, OwedPage } from '#app/.server/payments/owed.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** The three figures above the list: what is owed in all, of which deposits, and by how many clients. */
export function OwedTotals({ totals }: { totals: OwedPage['totals'] }) {
	const { t } = useTranslation('transactions')
	const fmt = useFormat()
	return (
		<section aria-label={t('owed.totals.label')} className="grid gap-4 sm:grid-cols-3">
			<StatCard title={t('owed.totals.owed')} value={fmt.money(totals.owed)} icon={WalletIcon} />
			<StatCard title={t('owed.totals.deposits')} value={fmt.money(totals.deposits)} icon={CreditCardIcon} />
			<StatCard
				title={t('owed.totals.clients')}
				value={fmt.number(totals.clients)}
				hint={t('owed.totals.lines', { count: totals.lines })}
				icon={UsersIcon}
			/>
		</section>
	)
}

/** "Nobody owes you anything": the page with nothing open. */
export function OwedEmpty() {
	const { t } = useTranslation('transactions')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('owed.empty.title')}</h2>
				</CardTitle>
				<CardDescription>{t('owed.empty.description')}</CardDescription>
			</CardHeader>
		</Card>
	)
}

/** One client and the amounts they owe, oldest first; past the lines shown, a link to the client's page. */
export function OwedClient({ group, timezone }: { group: OwedGroup; timezone: string }) {
	const { t } = useTranslation('transactions')
	const fmt = useFormat()
	const headingId = `owed-${group.clientId ?? group.lines[0]!.appointmentId}`
	const more = group.lineCount - group.lines.length
	return (
		<section aria-labelledby={headingId} className="grid gap-3 rounded-lg border bg-background p-4">
			<div className="flex flex-wrap items-baseline justify-between gap-2">
				<h2 id={headingId} className="text-lg font-semibold break-words">
					{group.clientId ? (
						<Link to={`/app/clients/${group.clientId}`} className="hover:underline">
							{group.name || t('owed.noClient')}
						</Link>
					) : (
						group.name || t('owed.noClient')
					)}
				</h2>
				<p className="text-sm font-medium tabular-nums">{t('owed.clientTotal', { amount: fmt.money(group.total) })}</p>
			</div>
			<ul className="grid gap-3">
				{group.lines.map((line) => (
					<OwedLineItem key={line.expectationId} line={line} timezone={timezone} />
				))}
			</ul>
			{more > 0 && group.clientId ? (
				<Link to={`/app/clients/${group.clientId}`} className="w-fit text-sm text-primary underline-offset-4 hover:underline">
					{t('owed.more', { count: more })}
				</Link>
			) : null}
		</section>
	)
}

function OwedLineItem({ line, timezone }: { line: OwedLine; timezone: string }) {
	const { t } = useTranslation('transactions')
	const fmt = useFormat()
	const titleId = `owed-line-${line.expectationId}`
	const reasonId = `owed-reason-${line.expectationId}`
	return (
		<li aria-labelledby={titleId} className="grid gap-2 rounded-md border p-3 text-sm sm:grid-cols-[1fr_auto] sm:items-center">
			<div className="grid min-w-0 gap-1">
				<p id={titleId} className="font-medium break-words">
					{t('owed.line', { date: fmt.date(line.date), time: fmt.time(line.time), zone: timezone, service: line.service ?? '—' })}
				</p>
				<div className="flex flex-wrap items-center gap-x-3 gap-y-1">
					<Badge variant={line.kind === 'deposit' ? 'warning' : 'secondary'}>{t(`owed.kinds.${line.kind}`)}</Badge>
					<span className="font-semibold tabular-nums">{t('owed.stillOwed', { amount: fmt.money(line.remaining) })}</span>
					<span>
						{t('owed.code')} <code className="rounded bg-muted px-1.5 py-0.5 font-mono tracking-wider">{line.memoCode}</code>
					</span>
				</div>
				{line.dueAt ? (
					<p className="text-muted-foreground">
						{t('owed.holdUntil', { date: fmt.date(line.dueAt.date), time: fmt.time(line.dueAt.time) })}
					</p>
				) : null}
				{line.requestedAt ? (
					<p className="text-muted-foreground">
						{t('owed.requested', { date: fmt.date(line.requestedAt.date), time: fmt.time(line.requestedAt.time) })}
					</p>
				) : null}
				{line.email ? null : (
					<p id={reasonId} className="text-muted-foreground">
						{t('owed.noEmail')}
					</p>
				)}
			</div>
			<div className="flex flex-wrap items-center gap-2">
				<Button variant="outline" size="sm" asChild>
					<Link to={`/app/booking/appointments/${line.appointmentId}`}>{t('owed.open')}</Link>
				</Button>
				<RequestButton line={line} reasonId={line.email ? undefined : reasonId} />
			</div>
		</li>
	)
}

/** "Send payment request": one post per line (works without JavaScript); disabled, with the reason, when there is no address. */
function RequestButton({ line, reasonId }: { line: OwedLine; reasonId: string | undefined }) {
	const { t } = useTranslation('transactions')
	const navigation = useNavigation()
	const pending =
		navigation.state === 'submitting' &&
		navigation.formData?.get('intent') === 'request-payment' &&
		navigation.formData.get('expectationId') === line.expectationId
	return (
		<AppForm method="post">
			<input type="hidden" name="intent" value="request-payment" />
			<input type="hidden" name="expectationId" value={line.expectationId} />
			<Button type="submit" size="sm" disabled={!line.email || pending} aria-describedby={reasonId}>
				{pending ? <Spinner aria-label={t('owed.requesting')} /> : null}
				{pending ? t('owed.requesting') : t('owed.request')}
			</Button>
		</AppForm>
	)
}
