import { createInstance, type i18n as I18n } from 'i18next'
import { createElement as h } from 'react'
import { renderToString } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { describe, expect, test } from 'vitest'
import { resources } from '#app/.server/i18n.ts'
import { i18nConfig } from '#app/lib/i18n.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

async function instance(lng: string) {
	const i18n = createInstance({ ...i18nConfig, resources, lng, initAsync: false })
	await i18n.init()
	return i18n
}

/** What the server's `t` renders for each call, in a component, as a page would. */
function render(i18n: I18n, ns: string, calls: Array<[string, unknown?]>, keyPrefix?: string) {
	function Probe() {
		const { t } = useTranslation(ns, keyPrefix ? { keyPrefix } : undefined)
		return h(
			'ul',
			null,
			...calls.map(([key, opts], i) => h('li', { key: i }, String((t as (k: string, o?: unknown) => unknown)(key, opts)))),
		)
	}
	const html = renderToString(h(I18nextProvider, { i18n }, h(Probe)))
	return [...html.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]!.replaceAll('&quot;', '"').replaceAll('&amp;', '&'))
}

describe('the server-side t (kept lookups)', () => {
	test('gives what i18next gives, call after call, in each language: plain keys, plurals, interpolation, prefixes', async () => {
		for (const lng of ['en', 'es', 'pt-BR']) {
			const i18n = await instance(lng)
			const calls: Array<[string, unknown?]> = [
				['minutes', { count: 1 }],
				['minutes', { count: 5 }],
				['minutes', { count: 1 }],
				['minutes', { count: '1' }],
				['slot.available', { count: 2 }],
				['common:gears.remaining', { count: 12000 }],
				['common:actions.close'],
			]
			const expected = calls.map(([key, opts]) => i18n.t(key, { ns: 'book', ...(opts as object) }))
			// Twice: the second render reads what the first kept.
			expect(render(i18n, 'book', calls)).toEqual(expected)
			expect(render(i18n, 'book', calls)).toEqual(expected)
			expect(render(i18n, 'common', [['close']], 'actions')).toEqual([i18n.t('actions.close', { ns: 'common' })])
		}
		expect(render(await instance('es'), 'book', [['minutes', { count: 5 }]])).toEqual(['5 minutos'])
	})

	test('a value cannot pass for other options: each set of values gets its own text', async () => {
		const i18n = await instance('en')
		const crafted = 'Ann\u0000other\u0001x'
		expect(render(i18n, 'common', [['sidebar.userCard', { name: crafted }]])).toEqual([`Settings for ${crafted}`])
		expect(render(i18n, 'common', [['sidebar.userCard', { name: 'Ann', other: 'x' }]])).toEqual(['Settings for Ann'])
		expect(render(i18n, 'common', [['sidebar.userCard', { name: 'Ann' }]])).toEqual(['Settings for Ann'])
	})

	test('options that are not plain values are looked up every time', async () => {
		const i18n = await instance('en')
		const first = render(i18n, 'common', [['sidebar.userCard', { name: { toString: () => 'One' } }]])
		const second = render(i18n, 'common', [['sidebar.userCard', { name: { toString: () => 'Two' } }]])
		expect(first).toEqual(['Settings for One'])
		expect(second).toEqual(['Settings for Two'])
	})
})
