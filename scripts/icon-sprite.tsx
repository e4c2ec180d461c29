/**
 * Writes app/components/icons.svg, the sprite of every icon the app shows, from lucide-react's
 * drawings (docs/decisions/030-lighter-pages.md). Run it after adding a name to ICON_NAMES:
 *
 *   node_modules/.bin/tsx scripts/icon-sprite.tsx
 *
 * tests/unit/icons.test.ts fails while the committed sprite differs from what this writes.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import * as lucide from 'lucide-react'
import { createElement, type ComponentType } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { ICON_NAMES, iconId } from '../app/components/icon-names.ts'

export const spritePath = path.resolve(import.meta.dirname, '../app/components/icons.svg')

/** One `<symbol>` per icon, its id the icon's kebab-case name, its paths as lucide draws them. */
export function iconSprite() {
	const symbols = ICON_NAMES.map((name) => {
		const component = (lucide as unknown as Record<string, ComponentType | undefined>)[`${name}Icon`]
		if (!component) throw new Error(`lucide-react has no ${name}Icon`)
		const markup = renderToStaticMarkup(createElement(component))
		const drawing = /^<svg[^>]*>([\s\S]*)<\/svg>$/.exec(markup)?.[1]
		if (!drawing) throw new Error(`unexpected markup for ${name}Icon: ${markup.slice(0, 80)}`)
		return `<symbol id="${iconId(name)}" viewBox="0 0 24 24">${drawing}</symbol>`
	})
	return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join('\n')}\n</svg>\n`
}

if (process.argv[1] === import.meta.filename) {
	writeFileSync(spritePath, iconSprite())
	console.log(`${path.relative(process.cwd(), spritePath)}: ${ICON_NAMES.length} icons`)
}
