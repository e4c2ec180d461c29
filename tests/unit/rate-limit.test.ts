/**
 * Every rate limit of the product is one entry of LIMITS (app/.server/rate-limit.ts): the table
 * is whole and sane, an operator's setting reaches it, and no code under app/ writes a limit of
 * its own to the limiter. The counting itself is tested in tests/db/hardening.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// Read by the table's operator-set entries when first asked (env() parses once): set before.
process.env.SESSION_SECRET ??= 'unit-test-session-secret-of-32-characters'
process.env.BOOK_POSTS_PER_HOUR = '7'
process.env.SIGNUP_WINDOW_MINUTES = '30'

const { LIMITS, MAX_WINDOW_MINUTES } = await import('#app/.server/rate-limit.ts')

describe('the table of rate limits', () => {
	it('lists every limit of the product, each a positive count in a window the counts are kept for', () => {
		expect(Object.keys(LIMITS).sort()).toEqual(
			[
				'api-request',
				'api-token-failure',
				'book_post',
				'email-change',
				'email-verification',
				'integration-check',
				'invite',
				'invoice-page-miss',
				'login_failure',
				'login_failure_ip',
				'password-change',
				'payment-request',
				'payment-request-organization',
				'picture-upload',
				'signup',
				'slot_lookup',
			].sort(),
		)
		for (const [name, { limit, windowMinutes }] of Object.entries(LIMITS)) {
			expect(Number.isInteger(limit) && limit > 0, `${name}: limit ${limit}`).toBe(true)
			expect(
				Number.isInteger(windowMinutes) && windowMinutes > 0 && windowMinutes <= MAX_WINDOW_MINUTES,
				`${name}: window ${windowMinutes}`,
			).toBe(true)
		}
	})

	it('takes the operator’s settings where there are some, and the defaults of docs/deploy.md otherwise', () => {
		expect(LIMITS.book_post).toEqual({ limit: 7, windowMinutes: 60 })
		expect(LIMITS.signup).toEqual({ limit: 20, windowMinutes: 30 })
		expect(LIMITS.slot_lookup).toEqual({ limit: 600, windowMinutes: 60 })
		expect(LIMITS.login_failure).toEqual({ limit: 10, windowMinutes: 15 })
		expect(LIMITS.login_failure_ip).toEqual({ limit: 100, windowMinutes: 15 })
	})
})

const APP = path.resolve('app')
const LIMITER = path.join(APP, '.server', 'rate-limit.ts')

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name)
		if (statSync(full).isDirectory()) return filesUnder(full)
		return /\.(ts|tsx|js)$/.test(name) ? [full] : []
	})
}

/** The text of every call of `name(` in `source`, to its closing parenthesis. */
function callsOf(source: string, name: string) {
	const calls: string[] = []
	for (const match of source.matchAll(new RegExp(`\\b${name}\\(`, 'g'))) {
		let depth = 0
		let end = match.index + match[0].length - 1
		for (; end < source.length; end++) {
			if (source[end] === '(') depth++
			else if (source[end] === ')' && --depth === 0) break
		}
		calls.push(source.slice(match.index, end + 1))
	}
	return calls
}

describe('the limits have one home', () => {
	it('no file under app/ but rate-limit.ts writes a limit or a window of its own', () => {
		const offenders: string[] = []
		for (const file of filesUnder(APP).filter((f) => f !== LIMITER)) {
			const source = readFileSync(file, 'utf8')
			const where = path.relative(process.cwd(), file)
			if (/\bwindowMinutes\s*:/.test(source)) offenders.push(`${where}: a windowMinutes literal`)
			for (const call of [...callsOf(source, 'allowEvent'), ...callsOf(source, 'countEvents')]) {
				if (/[{,]\s*limit\s*:/.test(call)) offenders.push(`${where}: ${call}`)
				if (call.startsWith('countEvents') && /,\s*[\d_]+\s*\)$/.test(call)) offenders.push(`${where}: ${call}`)
			}
		}
		expect(offenders, 'take the limit from LIMITS by name (app/.server/rate-limit.ts)').toEqual([])
	})
})
