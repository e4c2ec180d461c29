/**
 * docs/decisions/README.md indexes every decision record (number, title, status, date): a record
 * added without its line, or two records with one number, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const dir = 'docs/decisions'
const records = readdirSync(dir).filter((f) => /^\d{3}-.+\.md$/.test(f))
const index = readFileSync(`${dir}/README.md`, 'utf8')

describe('the index of decision records', () => {
	it('lists each record once, with a title, a status and a date (cells padded as Prettier pads them)', () => {
		for (const file of records) {
			const lines = index.split('\n').filter((line) => line.includes(`](${file})`))
			expect(lines, file).toHaveLength(1)
			expect(lines[0], file).toMatch(/^\| \[\d{3}\]\([^)]+\) +\| [^|]*\S[^|]* \| [^|]*\S[^|]* \| \d{4}-\d{2}-\d{2} +\|$/)
		}
	})

	it('numbers records one after another, each number once', () => {
		const numbers = records.map((f) => Number(f.slice(0, 3))).sort((a, b) => a - b)
		expect(numbers).toEqual(numbers.map((_, i) => i + 1))
	})
})
