import { test } from '@playwright/test'
import { routeSecurity, type RouteSecurity } from '../../app/route-security.ts'
import type { Org } from './world.ts'

export { routeSecurity, type RouteSecurity }

export const baseURLOf = () => test.info().project.use.baseURL!

/** A request path for the entry, its parameters filled with `org`'s rows (another organization's, to attack). */
export function concretePath(entry: RouteSecurity, org: Org, options: { token?: string; post?: boolean } = {}) {
	const values: Record<string, string> = {
		orgSlug: org.slug,
		clientId: org.clientId,
		providerId: org.providerId,
		batchId: org.batchId,
		moduleId: '', // filled below: the catalogue's, shared by all organizations
		id: org.appointmentId,
		appointmentId: org.appointmentId,
		invoiceId: org.invoiceId,
		scheduleId: org.scheduleId,
		expenseId: org.expenseId,
		pipelineId: org.pipelineId,
		token: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
		bucket: 'logos',
	}
	let path = entry.path
		.replace(/:moduleId/g, 'b0000000-0000-4000-8000-000000000003')
		.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? name))
		.replace(/\*$/, entry.id === 'routes/storage' ? `${org.orgId}/logo.png` : 'no-such-page')
	if (entry.id.startsWith('routes/book/booked') && options.token !== undefined) path += `?token=${encodeURIComponent(options.token)}`
	// A form posts to an index route with `?index` (else the post reaches its layout, which has no action).
	if (entry.index && options.post) path += '?index'
	return path
}

/** The form every walk posts first to an action: its first intent, or none. */
export function firstIntent(entry: RouteSecurity) {
	return entry.post?.intents[0]
}

/** Hostile text: SQL and HTML meta-characters. */
export const HOSTILE = ["'; drop table clients--", '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>']
/** How each HOSTILE string may never appear in a page: as live markup. */
export const LIVE_MARKUP = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>']
