/**
 * Bundle budget (issue "Quality gates", item 3): the gzipped JavaScript each route loads on a
 * first visit, read from the build's route manifest (build/client/assets/manifest-*.js, what
 * React Router itself preloads): the manifest, the client entry and its imports, then for every route from the
 * root down to the page its module and static imports, each file counted once. Printed against
 * the server's own not-found page (routes/not-found: root + an empty page), the framework's floor.
 * Chunks a page loads later by dynamic import (charts) are not part of a first visit and are
 * listed at the end. Prints figures; not a pass/fail test.
 *
 *   npm run build && node_modules/.bin/tsx bench/bundle.ts
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const client = path.resolve(import.meta.dirname, '../build/client')
const assets = path.join(client, 'assets')
const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f))
if (!manifestFile) throw new Error('no route manifest in build/client/assets: npm run build first')

type Entry = { module: string; imports?: string[] }
type RouteEntry = Entry & { id: string; parentId?: string; path?: string; index?: boolean }
const text = readFileSync(path.join(assets, manifestFile), 'utf8')
const manifest = JSON.parse(text.slice(text.indexOf('=') + 1).replace(/;\s*$/, '')) as { entry: Entry; routes: Record<string, RouteEntry> }

const gz = new Map<string, number>()
const gzipped = (url: string) => {
	let size = gz.get(url)
	if (size === undefined) {
		size = gzipSync(readFileSync(path.join(client, url)), { level: 9 }).length
		gz.set(url, size)
	}
	return size
}

function filesOf(routeId: string): Set<string> {
	// The route manifest itself is loaded by every first visit: the app sends it whole
	// (`routeDiscovery: 'initial'`, docs/decisions/030-lighter-pages.md), not piece by piece in each page.
	const files = new Set([`/assets/${manifestFile}`, manifest.entry.module, ...(manifest.entry.imports ?? [])])
	const chain: RouteEntry[] = []
	for (let r: RouteEntry | undefined = manifest.routes[routeId]; r; r = r.parentId ? manifest.routes[r.parentId] : undefined)
		chain.unshift(r)
	for (const r of chain) for (const f of [r.module, ...(r.imports ?? [])]) files.add(f)
	return files
}
const total = (files: Set<string>) => [...files].reduce((sum, f) => sum + gzipped(f), 0)
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

function urlOf(routeId: string) {
	const parts: string[] = []
	for (let r: RouteEntry | undefined = manifest.routes[routeId]; r; r = r.parentId ? manifest.routes[r.parentId] : undefined)
		if (r.path) parts.unshift(r.path)
	return `/${parts.join('/')}`.replace(/\/+/g, '/')
}

const floorFiles = filesOf('routes/not-found')
const floor = total(floorFiles)
// Pages only: routes with children (layouts) are counted in their pages.
const parents = new Set(Object.values(manifest.routes).map((r) => r.parentId))
const pages = Object.values(manifest.routes)
	.filter((r) => r.id !== 'root' && !parents.has(r.id) && (r as { hasDefaultExport?: boolean }).hasDefaultExport)
	.map((r) => {
		const files = filesOf(r.id)
		const own = [...files].filter((f) => !floorFiles.has(f))
		const largest = own
			.map((f) => [f, gzipped(f)] as const)
			.sort((a, b) => b[1] - a[1])
			.slice(0, 3)
		return { id: r.id, url: urlOf(r.id), files: files.size, size: total(files), largest }
	})
	.sort((a, b) => b.size - a.size)

console.log(`Route manifest: build/client/assets/${manifestFile}; gzip level 9.\n`)
console.log(`Floor: routes/not-found loads ${floorFiles.size} files, ${kb(floor)} gzipped.\n`)
console.log('| route | url | files | gzipped | over the floor | largest own files |')
console.log('|---|---|---|---|---|---|')
for (const p of pages) {
	const extra = p.largest.map(([f, s]) => `${path.basename(f).replace(/-[\w-]{8}\.js$/, '')} ${kb(s)}`).join(', ')
	console.log(`| ${p.id} | ${p.url} | ${p.files} | ${kb(p.size)} | +${kb(p.size - floor)} | ${extra} |`)
}

// Chunks no route loads up front: reached only through a dynamic import.
const loaded = new Set(pages.flatMap((p) => [...filesOf(p.id)]))
const lazy = readdirSync(assets)
	.filter((f) => f.endsWith('.js') && f !== manifestFile && !loaded.has(`/assets/${f}`))
	.map((f) => [f, gzipped(`/assets/${f}`)] as const)
	.filter(([, s]) => s > 1024)
	.sort((a, b) => b[1] - a[1])
console.log('\nLoaded later (dynamic imports), over 1 KB gzipped:')
for (const [f, s] of lazy) console.log(`- ${f}: ${kb(s)}`)

console.log('\nThe floor, file by file:')
for (const f of [...floorFiles].sort((a, b) => gzipped(b) - gzipped(a))) console.log(`- ${path.basename(f)}: ${kb(gzipped(f))}`)
