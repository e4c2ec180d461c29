/**
 * The list of app/route-security.ts names every route of app/routes.ts, and nothing else, so
 * that a new route cannot be forgotten by the walk (docs/security.md).
 */
import { expect, test } from '@playwright/test'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import routes from '../../app/routes.ts'
import { routeSecurity } from '../../app/route-security.ts'

/** Every route of the table as [id, full path], the way React Router names them. */
function flatten(entries: RouteConfigEntry[], parent = ''): Array<[string, string]> {
	return entries.flatMap((entry) => {
		const path = entry.path === undefined ? parent || '/' : `${parent}/${entry.path}`.replace(/\/+/g, '/')
		const id = entry.id ?? entry.file.replace(/\.[^.]+$/, '')
		return [[id, `${path}${entry.index ? ' (index)' : ''}`] as [string, string], ...flatten(entry.children ?? [], path === '/' ? '' : path)]
	})
}

test('every route of the route table has one entry in the security list, and every entry a route', () => {
	const table = flatten(routes)
		.map(([id, path]) => `${id} ${path}`)
		.sort()
	const list = routeSecurity.map((r) => `${r.id} ${r.path}${r.index ? ' (index)' : ''}`).sort()
	expect(list, 'app/route-security.ts must describe exactly the routes of app/routes.ts').toEqual(table)
	expect(new Set(routeSecurity.map((r) => r.id)).size).toBe(routeSecurity.length)
})

test('every path parameter is either an id the walk fills with another organization’s row or a known public one', () => {
	for (const entry of routeSecurity) {
		const params = [...entry.path.matchAll(/:(\w+)/g)].map((m) => m[1]!)
		for (const param of params) {
			// The public ones: an organization's public slug, a storage bucket, an upload's progress token (scoped to the member's organization).
			expect(['orgSlug', 'bucket', 'token', ...(entry.ids ?? [])], `${entry.id} :${param}`).toContain(param)
		}
		for (const id of entry.ids ?? []) expect(params, `${entry.id} ids`).toContain(id)
	}
})
