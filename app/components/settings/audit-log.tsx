import { Form } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { MODULES } from '#app/lib/modules.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** An event as the screen shows it: its moment already in the organization's zone. */
export type AuditRow = {
	id: string
	at: { date: string; time: string }
	actorId: string | null
	actorLabel: string
	entityType: string
	action: 'created' | 'updated' | 'deleted'
	changes: Record<string, [unknown, unknown]>
	label: string | null
	amount: string | null
	rowCount: number
}

export type AuditLogView = {
	active: boolean
	since: string | null
	events: AuditRow[]
	/** The query of the next (older) page, null on the last. */
	olderQuery: string | null
	/** Whether this is a later page (a link back to the newest). */
	paged: boolean
	filters: { kind: string; actor: string; from: string; to: string }
	kinds: readonly string[]
	actors: { id: string; name: string }[]
	sources: readonly string[]
	/** Names of clients that changes point to (a payment's client), by id. */
	clientNames: Record<string, string>
}

const MONEY_FIELDS = new Set(['amount', 'fee', 'tip', 'total', 'amount_paid', 'discount'])
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const selectClass = 'h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs'

/** The audit log tab (docs/product.md, Audit log): filters as a GET form, the events, keyset pages. */
export function AuditLogScreen({ view }: { view: AuditLogView }) {
	const { t } = useTranslation('settings')
	const format = useFormat()
	if (!view.active) {
		return <ModuleOffer ns="settings" prefix="auditLog.inactive" moduleId={MODULES.crm.id} testId="audit-log-inactive" />
	}
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('auditLog.title')}</h2>
				</CardTitle>
				<CardDescription>
					{t('auditLog.description')} {view.since ? t('auditLog.since', { date: format.date(view.since) }) : null}
				</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-6">
				<Filters view={view} />
				{view.events.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('auditLog.empty')}</p>
				) : (
					<ol className="grid gap-3" data-testid="audit-events">
						{view.events.map((event) => (
							<EventItem key={event.id} event={event} clientNames={view.clientNames} />
						))}
					</ol>
				)}
				<nav className="flex flex-wrap gap-3" aria-label={t('auditLog.title')}>
					{view.paged ? (
						<Button asChild variant="outline">
							<Link to={`?${pageQuery(view.filters, null)}`}>{t('auditLog.newest')}</Link>
						</Button>
					) : null}
					{view.olderQuery ? (
						<Button asChild variant="outline">
							<Link to={`?${view.olderQuery}`}>{t('auditLog.older')}</Link>
						</Button>
					) : null}
				</nav>
			</CardContent>
		</Card>
	)
}

/** The filters' query with a cursor (or none): the pages' links keep the filters. */
export function pageQuery(filters: AuditLogView['filters'], before: string | null) {
	const params = new URLSearchParams()
	for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value)
	if (before) params.set('before', before)
	return params.toString()
}

function Filters({ view }: { view: AuditLogView }) {
	const { t } = useTranslation('settings')
	return (
		<Form method="get" className="grid items-end gap-3 sm:grid-cols-5" aria-label={t('auditLog.filters.label')}>
			<div className="grid gap-1.5">
				<Label htmlFor="audit-kind">{t('auditLog.filters.kind')}</Label>
				<select id="audit-kind" name="kind" defaultValue={view.filters.kind} className={selectClass}>
					<option value="">{t('auditLog.filters.anyKind')}</option>
					{view.kinds.map((kind) => (
						<option key={kind} value={kind}>
							{t(`auditLog.kinds.${kind}`)}
						</option>
					))}
				</select>
			</div>
			<div className="grid gap-1.5">
				<Label htmlFor="audit-actor">{t('auditLog.filters.actor')}</Label>
				<select id="audit-actor" name="actor" defaultValue={view.filters.actor} className={selectClass}>
					<option value="">{t('auditLog.filters.anyActor')}</option>
					{view.actors.map((actor) => (
						<option key={actor.id} value={actor.id}>
							{actor.name}
						</option>
					))}
					<option value="system">{t('auditLog.filters.system')}</option>
				</select>
			</div>
			<div className="grid gap-1.5">
				<Label htmlFor="audit-from">{t('auditLog.filters.from')}</Label>
				<Input id="audit-from" name="from" type="date" defaultValue={view.filters.from} />
			</div>
			<div className="grid gap-1.5">
				<Label htmlFor="audit-to">{t('auditLog.filters.to')}</Label>
				<Input id="audit-to" name="to" type="date" defaultValue={view.filters.to} />
			</div>
			<div className="flex gap-2">
				<Button type="submit">{t('auditLog.filters.apply')}</Button>
				<Button asChild variant="ghost">
					<Link to="/app/settings/audit-log">{t('auditLog.filters.clear')}</Link>
				</Button>
			</div>
		</Form>
	)
}

function EventItem({ event, clientNames }: { event: AuditRow; clientNames: Record<string, string> }) {
	const { t } = useTranslation('settings')
	const format = useFormat()
	const actor = event.actorId ? event.actorLabel : t(`auditLog.sources.${event.actorLabel}`, { defaultValue: t('auditLog.sources.system') })
	const field = (name: string) => t(`auditLog.fields.${name}`, { defaultValue: name.replaceAll('_', ' ') })
	const value = (name: string, v: unknown): string => {
		if (v === null || v === undefined || v === '') return t('auditLog.values.empty')
		if (typeof v === 'boolean') return t(v ? 'auditLog.values.yes' : 'auditLog.values.no')
		if (MONEY_FIELDS.has(name) && (typeof v === 'number' || typeof v === 'string')) return format.money(v)
		if (name === 'client_id' && typeof v === 'string') return clientNames[v] ?? t('auditLog.values.deletedClient')
		if ((name === 'category' || name === 'role') && typeof v === 'string') return t(`auditLog.values.${name}.${v}`, { defaultValue: v })
		if (typeof v === 'string' && ISO_DATE.test(v)) return format.date(v)
		if (Array.isArray(v))
			return v.length ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ') : t('auditLog.values.empty')
		if (typeof v === 'object') return truncate(JSON.stringify(v))
		return truncate(String(v))
	}
	const subject = () => {
		const amount = event.amount === null ? '' : format.money(event.amount)
		switch (event.entityType) {
			case 'payment':
				return event.label ? t('auditLog.subjects.payment', { amount, label: event.label }) : t('auditLog.subjects.paymentBare', { amount })
			case 'invoice':
				return event.label ? t('auditLog.subjects.invoice', { amount, label: event.label }) : t('auditLog.subjects.invoiceBare', { amount })
			case 'member':
				return event.label ? t('auditLog.subjects.member', { label: event.label }) : t('auditLog.subjects.memberBare')
			default:
				return t(`auditLog.subjects.${event.entityType}`, { label: event.label ?? '' })
		}
	}
	const headline =
		event.rowCount > 1
			? t(`auditLog.summary.${event.action}`, {
					actor,
					count: format.number(event.rowCount),
					things: t(`auditLog.things.${event.entityType}`),
				})
			: t(`auditLog.${event.action}`, { actor, subject: subject() })
	const changes = Object.entries(event.changes)
	return (
		<li className="grid gap-1 rounded-md border p-3 text-sm" data-testid="audit-event">
			<p className="font-medium">{headline}</p>
			{changes.length ? (
				<ul className="grid gap-0.5 text-muted-foreground">
					{changes.map(([name, [before, after]]) => (
						<li key={name}>
							{event.action === 'updated'
								? t('auditLog.change', { field: field(name), old: value(name, before), new: value(name, after) })
								: t('auditLog.value', { field: field(name), value: value(name, event.action === 'created' ? after : before) })}
						</li>
					))}
				</ul>
			) : null}
			<p className="text-xs text-muted-foreground">
				<time dateTime={`${event.at.date}T${event.at.time}`}>
					{t('auditLog.at', { date: format.date(event.at.date), time: format.time(event.at.time) })}
				</time>
			</p>
		</li>
	)
}

const truncate = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text)
