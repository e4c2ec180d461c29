import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { supportedLanguages } from '#app/lib/i18n.ts'
import * as settings from '#app/lib/schemas/settings.ts'

const errorTexts = (lng: string): Record<string, string> => JSON.parse(readFileSync(`public/locales/${lng}/settings.json`, 'utf8')).errors

/** Every object schema of the settings forms, with its fields. */
const forms = Object.entries(settings).flatMap(([name, value]) =>
	value instanceof z.ZodObject ? [[name, value as z.ZodObject] as const] : [],
)

describe('the settings forms', () => {
	test('a text that is too long is refused with a message, in every language, that says the limit', () => {
		const limits = new Set<number>()
		for (const [name, schema] of forms) {
			for (const field of Object.keys(schema.shape)) {
				const issuesOf = (value: string) =>
					(schema.safeParse({ [field]: value }).error?.issues ?? []).filter((issue) => issue.path[0] === field)
				for (const { message } of issuesOf('a'.repeat(3000))) {
					for (const lng of supportedLanguages) expect(errorTexts(lng)[message], `${lng} ${name}.${field}: ${message}`).toBeTruthy()
					const limit = /^tooLong(\d+)$/.exec(message)?.[1]
					if (!limit) continue
					limits.add(Number(limit))
					expect(
						issuesOf('a'.repeat(Number(limit))).map((issue) => issue.message),
						`${name}.${field} at its limit`,
					).not.toContain(message)
					for (const lng of supportedLanguages)
						expect(errorTexts(lng)[message]!.replace(/[.,]/g, ''), `${lng} ${name}.${field}`).toContain(limit)
				}
			}
		}
		// The profile's name and phone, the organization's name, slug and description, the emails.
		expect([...limits].sort((a, b) => a - b)).toEqual([40, 63, 120, 254, 2000])
	})
})
