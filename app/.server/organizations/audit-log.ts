/**
 * The activity audit log (docs/product.md, Audit log; docs/decisions/053-audit-log.md), with CRM
 * Enterprise: the events the database's triggers write (public.audit_events, migration
 * 20261210200000_audit_log.sql), read by the organization's owners under RLS, newest first, a
 * page at a time by keyset; and the daily job that keeps two years of them.
 */
import { MODULES } from '#app/lib/modules.ts'
import { parseIsoDate } from '#app/lib/dates.ts'
import { isUuid } from '#app/lib/uuid.ts'
import { asSystem, asUser, sql } from '../db/index.ts'
import type { ScheduledJob } from '../scheduler.ts'

export const AUDIT_UPGRADE_ID = MODULES.crm.upgrades.enterprise.id
/** How long events are kept (also in the append-only trigger of the migration). */
export const AUDIT_RETENTION_YEARS = 2
export const AUDIT_PAGE_SIZE = 50

/** The screen's entity filter: the three kinds of records, and every settings table as one. */
export const AUDIT_KINDS = ['client', 'payment', 'invoice', 'settings'] as const
export type AuditKind = (typeof AUDIT_KINDS)[number]
const SETTINGS_TYPES = ['organization', 'booking_settings', 'messaging_settings', 'payment_handles', 'member']

export type AuditEvent = {
	id: string
	occurredAt: string
	actorId: string | null
	actorLabel: string
	entityType: string
	entityId: string | null
	action: 'created' | 'updated' | 'deleted'
	changes: Record<string, [unknown, unknown]>
	label: string | null
	amount: string | null
	rowCount: number
}

export type AuditFilters = {
	kind?: AuditKind | null
	/** A member's user id, or 'system' for what no member did. */
	actor?: string | null
	from?: string | null
	to?: string | null
	/** The keyset cursor: the last event of the previous page, `<occurred_at>_<id>`. */
	before?: string | null
}

/** The filters of a request's query, each checked: anything unknown is dropped, never an error. */
export function readAuditFilters(params: URLSearchParams): AuditFilters {
	const kind = params.get('kind')
	const actor = params.get('actor')
	const before = params.get('before')
	return {
		kind: (AUDIT_KINDS as readonly string[]).includes(kind ?? '') ? (kind as AuditKind) : null,
		actor: actor === 'system' || isUuid(actor) ? actor : null,
		from: parseIsoDate(params.get('from')),
		to: parseIsoDate(params.get('to')),
		before: before && parseCursor(before) ? before : null,
	}
}

const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

function parseCursor(cursor: string) {
	const at = cursor.lastIndexOf('_')
	if (at < 1) return null
	const instant = cursor.slice(0, at)
	const id = cursor.slice(at + 1)
	// Only the shape this module writes, and a real moment (no 31 February): PostgreSQL reads it as is.
	if (!isUuid(id) || !CURSOR_INSTANT.test(instant)) return null
	const parsed = new Date(instant)
	if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 19) !== instant.slice(0, 19)) return null
	return { instant, id }
}

/** Whether the organization owns CRM Enterprise, and since when (the log records from then). */
export async function auditAccess(userId: string, organizationId: string): Promise<{ active: boolean; since: string | null }> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_module_upgrades')
			.select(sql<string>`to_char(purchased_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`.as('since'))
			.where('organization_id', '=', organizationId)
			.where('upgrade_id', '=', AUDIT_UPGRADE_ID)
			.executeTakeFirst(),
	)
	return { active: row !== undefined, since: row?.since ?? null }
}

/**
 * A page of the organization's events, newest first, as the member may read them (owners: all;
 * anyone else: none, by RLS). Dates of the range are days in `timeZone`; `next` is the cursor of
 * the following page, null on the last.
 */
export async function listAuditEvents(
	userId: string,
	organizationId: string,
	filters: AuditFilters,
	timeZone = 'UTC',
): Promise<{ events: AuditEvent[]; next: string | null }> {
	const cursor = filters.before ? parseCursor(filters.before) : null
	const types = filters.kind === 'settings' ? SETTINGS_TYPES : filters.kind ? [filters.kind] : null
	const { rows } = await asUser(userId, (trx) =>
		sql<
			AuditEvent & { cursor: string }
		>`select e.id, to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "occurredAt",
				e.actor_id as "actorId",
				e.actor_label as "actorLabel", e.entity_type as "entityType", e.entity_id as "entityId", e.action, e.changes,
				e.label, e.amount::text as amount, e.row_count as "rowCount",
				to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || e.id as cursor
			from public.audit_events e
			where e.organization_id = ${organizationId}
				${types ? sql`and e.entity_type = any (${types}::text[])` : sql``}
				${filters.actor === 'system' ? sql`and e.actor_id is null` : filters.actor ? sql`and e.actor_id = ${filters.actor}::uuid` : sql``}
				${filters.from ? sql`and e.occurred_at >= (${filters.from}::date::timestamp at time zone ${timeZone})` : sql``}
				${filters.to ? sql`and e.occurred_at < ((${filters.to}::date + 1)::timestamp at time zone ${timeZone})` : sql``}
				${cursor ? sql`and (e.occurred_at, e.id) < (${cursor.instant}::timestamptz, ${cursor.id}::uuid)` : sql``}
			order by e.occurred_at desc, e.id desc
			limit ${AUDIT_PAGE_SIZE + 1}`.execute(trx),
	)
	const page = rows.slice(0, AUDIT_PAGE_SIZE)
	const next = rows.length > AUDIT_PAGE_SIZE ? page.at(-1)!.cursor : null
	return { events: page.map(({ cursor: _cursor, ...event }) => event), next }
}

/** The organization's members for the actor filter (name or email), by name. */
export async function auditActors(userId: string, organizationId: string): Promise<{ id: string; name: string }[]> {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string; name: string }>`select m.user_id as id, coalesce(nullif(btrim(p.full_name), ''), p.email, '—') as name
			from public.organization_members m left join public.profiles p on p.user_id = m.user_id
			where m.organization_id = ${organizationId}
			order by 2, 1`.execute(trx),
	)
	return rows
}

/** The names of the clients that the events' changes point to (a payment's client), as the owner may read them. */
export async function clientNamesOf(userId: string, organizationId: string, events: AuditEvent[]): Promise<Record<string, string>> {
	const ids = new Set<string>()
	for (const event of events) {
		for (const v of event.changes.client_id ?? []) if (isUuid(v)) ids.add(v)
	}
	if (ids.size === 0) return {}
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string; name: string }>`select id, name from public.clients
			where organization_id = ${organizationId} and id = any (${[...ids]}::uuid[])`.execute(trx),
	)
	return Object.fromEntries(rows.map((r) => [r.id, r.name]))
}

/** Removes the events older than the retention (the append-only trigger lets only those go). */
export async function pruneAuditLog() {
	await asSystem((trx) =>
		sql`delete from public.audit_events where occurred_at < now() - make_interval(years => ${AUDIT_RETENTION_YEARS})`.execute(trx),
	)
}

/** Daily: the events past two years go (docs/product.md, Audit log). */
export const auditPruningJob: ScheduledJob = {
	name: 'audit-log-pruning',
	due: (now) => [now.toISOString().slice(0, 10)],
	run: () => pruneAuditLog(),
}
