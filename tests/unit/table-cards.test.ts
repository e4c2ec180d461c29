import { createElement as h } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { Table } from '#app/components/ui/table.tsx'

/** A table with phone cards, as the server writes it: the table's own style, then the table. */
function render(labels: (string | null)[]) {
	const html = renderToString(
		h(Table, { cards: labels }, h('tbody', null, h('tr', null, ...labels.map((_, i) => h('td', { key: i }, `v${i}`))))),
	)
	const style = /<style>(.*?)<\/style>/s.exec(html)?.[1] ?? ''
	const id = /<table[^>]* data-cards="([^"]+)"/.exec(html)?.[1]
	return { html, style, id }
}

/** The labels the style gives each column (1-based), its CSS strings read back. */
function labelsOf(style: string) {
	const labels = new Map<number, string>()
	for (const [, n, literal] of style.matchAll(/:nth-child\((\d+)\):not\(\[colspan\]\)::before\{content:("(?:[^"\\]|\\.)*")\}/g)) {
		labels.set(
			Number(n),
			literal!.slice(1, -1).replace(/\\([0-9a-f]{1,6}) ?/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16))),
		)
	}
	return labels
}

describe('the phone cards’ labels, written once per table', () => {
	test('each labelled column gets its label by position, for this table only', () => {
		const { style, id } = render(['Date received', null, 'Método de pago'])
		expect(id).toBeTruthy()
		expect(style.startsWith('@media (width < 48rem){')).toBe(true)
		expect(style.split(`table[data-cards="${id}"]`).length - 1).toBe(2)
		expect([...labelsOf(style)]).toEqual([
			[1, 'Date received'],
			[3, 'Método de pago'],
		])
	})

	test('a label cannot end the style or break out of its string, and reads back as written', () => {
		const hostile = ['Say "hi" \\ now', '</style><script>alert(1)</script>', 'two\nlines']
		const { html, style } = render(hostile)
		expect(html.match(/<\/style/gi)).toHaveLength(1)
		expect(html).not.toContain('<script')
		expect([...labelsOf(style).values()]).toEqual(hostile)
	})

	test('two tables on a page do not share their rules', () => {
		const html = renderToString(h('div', null, h(Table, { cards: ['A'] }), h(Table, { cards: ['B'] })))
		const ids = [...html.matchAll(/data-cards="([^"]+)"/g)].map((m) => m[1])
		expect(new Set(ids).size).toBe(2)
	})
})
