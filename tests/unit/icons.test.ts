import { readFileSync } from 'node:fs'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { ICON_NAMES, iconId } from '#app/components/icon-names.ts'
import * as icons from '#app/components/icons.tsx'
import { iconSprite, spritePath } from '../../scripts/icon-sprite.tsx'

const sprite = readFileSync(spritePath, 'utf8')

describe('the icon sprite', () => {
	test('is what scripts/icon-sprite.tsx writes from lucide-react (run it after changing ICON_NAMES)', () => {
		expect(sprite).toBe(iconSprite())
	})

	test('holds a drawing for every icon the app exports, and icons.tsx exports every name', () => {
		const exported = Object.keys(icons).filter((name) => name.endsWith('Icon'))
		expect(exported.sort()).toEqual(ICON_NAMES.map((name) => `${name}Icon`).sort())
		for (const name of ICON_NAMES) expect(sprite).toMatch(new RegExp(`<symbol id="${iconId(name)}" viewBox="0 0 24 24"><[a-z]`))
	})
})

describe('an icon', () => {
	test('draws its symbol of the sprite, sized by its class (24 px by app.css without one) and hidden from screen readers', () => {
		const html = renderToStaticMarkup(createElement(icons.CheckCircle2Icon, { className: 'size-4 text-success' }))
		expect(html).toMatch(
			/^<svg aria-hidden="true" class="lucide size-4 text-success"><use href="[^"#]*icons[^"#]*\.svg[^"#]*#check-circle-2"><\/use><\/svg>$/,
		)
	})

	test('given a label, is announced instead of hidden', () => {
		const html = renderToStaticMarkup(createElement(icons.InfoIcon, { 'aria-label': 'More' }))
		expect(html).not.toContain('aria-hidden')
		expect(html).toContain('aria-label="More"')
	})
})
