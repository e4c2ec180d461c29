import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { namespaces, supportedLanguages } from '#app/lib/i18n.ts'

const root = path.resolve('public/locales')

function flatten(value: unknown, prefix = ''): Array<[string, unknown]> {
	if (value && typeof value === 'object') {
		return Object.entries(value).flatMap(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key))
	}
	return [[prefix, value]]
}

function load(lng: string, ns: string) {
	return new Map(flatten(JSON.parse(readFileSync(path.join(root, lng, `${ns}.json`), 'utf8'))))
}

describe('translations', () => {
	test('every language has the same namespace files, and every required namespace exists', () => {
		const files = supportedLanguages.map((lng) => readdirSync(path.join(root, lng)).sort())
		for (const list of files) expect(list).toEqual(files[0])
		for (const ns of namespaces) expect(files[0]).toContain(`${ns}.json`)
	})

	const nsFiles = readdirSync(path.join(root, 'en')).map((f) => f.replace(/\.json$/, ''))
	for (const ns of nsFiles) {
		test(`${ns}: the three languages carry exactly the same keys, none empty`, () => {
			const en = load('en', ns)
			for (const lng of supportedLanguages) {
				const other = load(lng, ns)
				expect([...other.keys()].sort(), `${lng}/${ns}`).toEqual([...en.keys()].sort())
				for (const [key, value] of other) {
					expect(typeof value, `${lng}/${ns}:${key}`).toBe('string')
					expect((value as string).trim(), `${lng}/${ns}:${key} is empty`).not.toBe('')
				}
			}
		})

		test(`${ns}: interpolations match across languages`, () => {
			const en = load('en', ns)
			for (const lng of supportedLanguages) {
				for (const [key, value] of load(lng, ns)) {
					const vars = (s: unknown) => [...String(s).matchAll(/\{\{(\w+)(?:,[^}]*)?\}\}/g)].map((m) => m[1]).sort()
					expect(vars(value), `${lng}/${ns}:${key}`).toEqual(vars(en.get(key)))
				}
			}
		})
	}
})

describe('the glossary (docs/glossary.md) in es and pt-BR', () => {
	const glossary = readFileSync(path.resolve('docs/glossary.md'), 'utf8')
	// The terms table: the section before the words the glossary rejects (tests/unit/glossary.test.ts).
	const rows = glossary
		.split('## Words we do not use')[0]!
		.split('\n')
		.filter((line) => /^\| [a-zA-Z]/.test(line) && !line.startsWith('| en '))
		.map((line) =>
			line
				.split('|')
				.slice(1, 4)
				.map((cell) => cell.trim()),
		)
	// Names that stay in English in every language (the glossary's "Register" paragraph).
	const productNames = ['P2P Transaction Tracker', 'Zelle', 'Venmo', 'Cash App', 'PayPal', 'Starter', 'Professional', 'Enterprise']
	const texts = (lng: string) =>
		readdirSync(path.join(root, lng)).flatMap((file) =>
			[...load(lng, file.replace(/\.json$/, ''))].map(
				([key, value]) =>
					[
						`${file}:${key}`,
						productNames.reduce((text, name) => text.replaceAll(name, ''), String(value).replace(/\{\{[^}]*\}\}/g, '')),
					] as const,
			),
		)
	const catalogueNames = (lng: string) =>
		[...load(lng, 'catalogue')].filter(([key]) => key.endsWith('.name')).map(([key, value]) => [key, String(value)] as const)

	for (const [column, lng] of [
		[1, 'es'],
		[2, 'pt-BR'],
	] as const) {
		test(`${lng} uses its own word for every glossary term, never the English one`, () => {
			const leaks: string[] = []
			for (const row of rows) {
				const english = row[0]!.split(' / ')
				const own = row[column]!.split(' / ')
				english.forEach((term, i) => {
					const word = term.replace(/\(.*\)/, '').trim()
					// Some terms are the same word in the language ("módulo", "upgrade", "cliente").
					if (!own[i] || own[i]!.toLowerCase().includes(word.toLowerCase())) return
					const pattern = new RegExp(`\\b${word}s?\\b`, 'i')
					for (const [key, text] of texts(lng)) if (pattern.test(text)) leaks.push(`${key}: "${word}"`)
				})
			}
			expect(leaks).toEqual([])
		})

		test(`${lng} names the modules and upgrades as its catalogue does, never by their English names`, () => {
			const own = new Map(catalogueNames(lng))
			const leaks: string[] = []
			for (const [key, english] of catalogueNames('en')) {
				if (own.get(key) === english) continue
				for (const [where, text] of texts(lng)) if (text.includes(english)) leaks.push(`${where}: "${english}"`)
			}
			expect(leaks).toEqual([])
		})
	}
})

describe('the plans of the catalogue (app/lib/plans.ts)', () => {
	test('every plan has its name, description, gears line and features in every language', async () => {
		const { plans } = await import('#app/lib/plans.ts')
		for (const lng of supportedLanguages) {
			const common = load(lng, 'common')
			for (const plan of plans) {
				for (const key of ['name', 'description', 'gears'])
					expect(common.get(`plans.${plan.id}.${key}`), `${lng} ${plan.id}.${key}`).toBeTruthy()
				for (const feature of plan.features) expect(common.get(`plans.features.${feature}`), `${lng} ${feature}`).toBeTruthy()
			}
		}
	})
})
