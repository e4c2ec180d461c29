import { requireRole } from '#app/.server/auth/session.ts'
import {
	AUDIT_KINDS,
	auditAccess,
	auditActors,
	clientNamesOf,
	listAuditEvents,
	readAuditFilters,
} from '#app/.server/organizations/audit-log.ts'
import { AUDIT_SOURCES } from '#app/.server/db/audit.ts'
import { AuditLogScreen, pageQuery, type AuditLogView } from '#app/components/settings/audit-log.tsx'
import { dateIn, dateTimeIn } from '#app/lib/dates.ts'
import type { Route } from './+types/audit-log'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

/**
 * The activity audit log, for owners, with CRM Enterprise (docs/product.md, Audit log): a GET
 * form filters it (by record, member and dates in the organization's zone), pages go by keyset.
 * Anyone else gets a 403; an owner without the upgrade, what it would give.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireRole(context, 'owner')
	const access = await auditAccess(user.userId, organization.id)
	const filters = readAuditFilters(new URL(request.url).searchParams)
	const shown = { kind: filters.kind ?? '', actor: filters.actor ?? '', from: filters.from ?? '', to: filters.to ?? '' }
	const base = { kinds: AUDIT_KINDS, sources: AUDIT_SOURCES, filters: shown, paged: filters.before !== null }
	if (!access.active) {
		return { ...base, active: false, since: null, events: [], olderQuery: null, actors: [], clientNames: {} } satisfies AuditLogView
	}
	const zone = organization.timezone
	const [page, actors] = await Promise.all([
		listAuditEvents(user.userId, organization.id, filters, zone),
		auditActors(user.userId, organization.id),
	])
	const clientNames = await clientNamesOf(user.userId, organization.id, page.events)
	return {
		...base,
		active: true,
		since: access.since ? dateIn(zone, new Date(access.since)) : null,
		events: page.events.map(({ occurredAt, entityId: _entityId, ...event }) => ({ ...event, at: dateTimeIn(zone, new Date(occurredAt)) })),
		olderQuery: page.next ? pageQuery(shown, page.next) : null,
		actors,
		clientNames,
	} satisfies AuditLogView
}

export default function AuditLogTab({ loaderData }: Route.ComponentProps) {
	return <AuditLogScreen view={loaderData} />
}
