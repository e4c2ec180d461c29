import { afterAll, expect, test } from 'vitest'
import { config, util } from 'zod/v4/core'
import { z } from 'zod'
import { zodJitlessInBrowser } from '#app/lib/zod-jitless.ts'

const g = globalThis as { document?: unknown }

afterAll(() => {
	delete g.document
	config({ jitless: false })
})

test('in a browser, zod runs jitless (no eval probe for the CSP to refuse) and still parses', () => {
	expect(config().jitless).toBeFalsy()
	g.document = {}
	zodJitlessInBrowser()
	// The module sets what zod itself reads: its global config, and so its eval probe's answer.
	expect(config().jitless).toBe(true)
	expect(util.allowsEval.value).toBe(false)
	const schema = z.object({ email: z.string().email(), count: z.coerce.number().int() })
	expect(schema.parse({ email: 'a@example.com', count: '3' })).toEqual({ email: 'a@example.com', count: 3 })
	expect(schema.safeParse({ email: 'nope', count: 'x' }).success).toBe(false)
})
