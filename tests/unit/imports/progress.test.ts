import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { isProgressToken, readProgress, reportProgress } from '#app/.server/payments/imports/progress.ts'

describe('import progress', () => {
	test('the organization that runs an import reads its progress; another does not', () => {
		const token = randomUUID()
		reportProgress(token, 'org-a', 'reading', 0.42)
		expect(readProgress(token, 'org-a')).toEqual({ phase: 'reading', share: 0.42 })
		expect(readProgress(token, 'org-b')).toBeNull()
		reportProgress(token, 'org-a', 'checking', 7)
		expect(readProgress(token, 'org-a')).toEqual({ phase: 'checking', share: 1 })
	})

	test('only UUID tokens are tracked; no token, no progress', () => {
		expect(isProgressToken(randomUUID())).toBe(true)
		expect(isProgressToken('../../etc')).toBe(false)
		expect(isProgressToken(null)).toBe(false)
		reportProgress(null, 'org-a', 'reading', 0.5)
		expect(readProgress('', 'org-a')).toBeNull()
	})
})
