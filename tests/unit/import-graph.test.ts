/**
 * The shape of the code (docs/decisions/038-layers-and-areas.md): the app's modules import in
 * one direction, routes → components → .server → lib, never upward, and no module imports
 * itself back through others, type-only imports included (the linter's import-x/no-cycle skips
 * those; a type cycle still ties two modules that should be apart).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const APP = path.resolve('app')

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name)
		if (statSync(full).isDirectory()) return filesUnder(full)
		return /\.(ts|tsx|js)$/.test(name) ? [full] : []
	})
}

/** The app file a specifier names, or null for a package or a generated type file. */
function resolve(from: string, specifier: string): string | null {
	let target: string
	if (specifier.startsWith('#app/')) target = path.join(APP, specifier.slice('#app/'.length))
	else if (specifier.startsWith('.')) target = path.resolve(path.dirname(from), specifier)
	else return null
	if (target.includes(`${path.sep}+types${path.sep}`)) return null
	for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')]) {
		try {
			if (statSync(candidate).isFile()) return candidate
		} catch {
			// not this one
		}
	}
	return null
}

const files = filesUnder(APP)
const graph = new Map<string, string[]>(
	files.map((file) => {
		const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
		const targets = importedFiles.map((i) => resolve(file, i.fileName)).filter((t): t is string => t !== null)
		return [file, [...new Set(targets)]]
	}),
)
const rel = (file: string) => path.relative(process.cwd(), file)

/** Tarjan's strongly connected components with more than one module, or a module importing itself. */
function cycles(): string[][] {
	let index = 0
	const order = new Map<string, number>()
	const low = new Map<string, number>()
	const stack: string[] = []
	const onStack = new Set<string>()
	const found: string[][] = []
	const visit = (node: string) => {
		order.set(node, index)
		low.set(node, index++)
		stack.push(node)
		onStack.add(node)
		for (const next of graph.get(node) ?? []) {
			if (!order.has(next)) {
				visit(next)
				low.set(node, Math.min(low.get(node)!, low.get(next)!))
			} else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!))
		}
		if (low.get(node) === order.get(node)) {
			const component: string[] = []
			let member: string
			do {
				member = stack.pop()!
				onStack.delete(member)
				component.push(rel(member))
			} while (member !== node)
			if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort())
		}
	}
	for (const file of graph.keys()) if (!order.has(file)) visit(file)
	return found
}

/** The layer of a module: 0 routes (and the app's entry files), 1 components, 2 .server, 3 lib, 4 data outside app/. */
function layer(file: string) {
	const r = path.relative(APP, file).split(path.sep)
	if (r[0] === '..') return 4 // files outside app/ (the translations) are data
	if (r[0] === 'lib') return 3
	if (r[0] === '.server') return 2
	if (r[0] === 'components') return 1
	return 0
}
const LAYERS = ['routes', 'components', '.server', 'lib', 'data']

describe('the import graph of app/', () => {
	it('has no cycle, type-only imports included', () => {
		expect(cycles()).toEqual([])
	})

	it('imports only downward: routes → components → .server → lib', () => {
		const upward = [...graph].flatMap(([file, targets]) =>
			targets.filter((t) => layer(t) < layer(file)).map((t) => `${rel(file)} (${LAYERS[layer(file)]}) → ${rel(t)} (${LAYERS[layer(t)]})`),
		)
		expect(upward).toEqual([])
	})

	it('reads every module of app/ (the graph is not empty by mistake)', () => {
		expect(graph.size).toBeGreaterThan(200)
		expect([...graph.values()].flat().length).toBeGreaterThan(1000)
	})
})
