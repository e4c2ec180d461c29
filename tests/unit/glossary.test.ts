import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { supportedLanguages } from '#app/lib/i18n.ts'

/**
 * One term per concept per language (docs/glossary.md): the glossary's "Words we do not use" table
 * is read here and every translated text is searched for those words, so a synonym that creeps back
 * in ("proveedores" for providers, "reserva" next to "agendamento") fails the build, not a reader.
 */

const root = path.resolve('public/locales')

function rejectedWords(): Array<{ language: string; word: string; instead: string }> {
	const glossary = readFileSync(path.resolve('docs/glossary.md'), 'utf8')
	const section = glossary.split('## Words we do not use')[1] ?? ''
	const rows = section
		.split('\n')
		.filter((line) => line.startsWith('|'))
		.map((line) =>
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim()),
		)
		.filter(([language]) => language && language !== 'language' && !language.startsWith('-'))
	return rows.flatMap(([language, words, instead]) =>
		words!.split(',').map((word) => ({ language: language!, word: word.trim(), instead: instead! })),
	)
}

function texts(value: unknown, key = ''): Array<[string, string]> {
	if (typeof value === 'string') return [[key, value]]
	if (Array.isArray(value)) return value.flatMap((child, i) => texts(child, `${key}[${i}]`))
	if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, child]) => texts(child, key ? `${key}.${k}` : k))
	return []
}

/** A whole word (or phrase), any case: "reserva" but not "reservar", "comp." but not "compromisso". */
function wholeWord(word: string) {
	const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
	return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu')
}

describe('glossary', () => {
	const rejected = rejectedWords()

	test('the glossary lists words it does not use, for every language', () => {
		expect(rejected.length).toBeGreaterThan(10)
		for (const lng of supportedLanguages)
			expect(
				rejected.some((r) => r.language === lng),
				lng,
			).toBe(true)
	})

	for (const lng of supportedLanguages) {
		test(`${lng}: no text uses a word the glossary rejects`, () => {
			const found: string[] = []
			for (const file of readdirSync(path.join(root, lng))) {
				const entries = texts(JSON.parse(readFileSync(path.join(root, lng, file), 'utf8')))
				for (const { word, instead } of rejected.filter((r) => r.language === lng)) {
					const pattern = wholeWord(word)
					for (const [key, text] of entries) {
						if (pattern.test(text)) found.push(`${file} ${key}: "${word}" (use ${instead}) in "${text}"`)
					}
				}
			}
			expect(found).toEqual([])
		})
	}

	test('the word check finds a rejected word in a sentence and leaves its longer relatives', () => {
		expect(wholeWord('reserva').test('Sua reserva:')).toBe(true)
		expect(wholeWord('reserva').test('para reservar o seu horário')).toBe(false)
		expect(wholeWord('comp.').test('{{count}} comp.')).toBe(true)
		expect(wholeWord('comp.').test('3 compromissos')).toBe(false)
		expect(wholeWord('proveedor').test('Proveedores')).toBe(false)
		expect(wholeWord('proveedores').test('Proveedores')).toBe(true)
	})
})
