/**
 * The OFX/QFX parser and the recognition of statement lines (docs/decisions/049-bank-feed.md):
 * OFX 1.x SGML and 2.x XML read alike; the account is never kept in full; ids are kept, made when
 * missing; hostile files (declarations, entities, huge or binary text, unclosed tags) are refused
 * or read in linear time, never expanded.
 */
import { describe, expect, test } from 'vitest'
import { isOfx, parseOfx } from '#app/.server/payments/imports/parsers/ofx.ts'
import { classifyBankLine, MAX_OFX_TRANSACTIONS } from '#app/lib/bank-feed.ts'
import { ofxSgml, ofxXml, type StatementLine } from '../fixtures/bank-feed.ts'

const LINES: StatementLine[] = [
	{ id: 'F1', date: '2026-03-04', amount: '128.50', name: 'VENMO', memo: 'CASHOUT PPD ID: 5264681992' },
	{ id: 'F2', date: '2026-03-05', amount: '-45.00', name: 'OFFICE DEPOT #123' },
	{ id: 'F3', date: '2026-03-06', amount: '500.00', type: 'XFER', name: 'Online Transfer from SAV ...4321' },
	{ id: 'F4', date: '2026-03-07', amount: '75.00', name: 'Zelle payment from ANA SILVA', memo: 'Conf# abc123' },
]

function read(text: string) {
	const result = parseOfx(text)
	if (!result.ok) throw new Error(`not read: ${result.error}`)
	return result
}

describe('OFX 1.x (SGML) and 2.x (XML)', () => {
	test('an SGML statement: every transaction with its type, day, signed amount, id, name and memo; the period', () => {
		const result = read(ofxSgml(LINES))
		expect(result.start).toBe('2026-03-01')
		expect(result.end).toBe('2026-03-31')
		expect(result.lines.map((l) => [l.fitId, l.trnType, l.postedOn, l.amount, l.name, l.memo])).toEqual([
			['F1', 'CREDIT', '2026-03-04', '128.50', 'VENMO', 'CASHOUT PPD ID: 5264681992'],
			['F2', 'DEBIT', '2026-03-05', '-45.00', 'OFFICE DEPOT #123', null],
			['F3', 'XFER', '2026-03-06', '500.00', 'Online Transfer from SAV ...4321', null],
			['F4', 'CREDIT', '2026-03-07', '75.00', 'Zelle payment from ANA SILVA', 'Conf# abc123'],
		])
	})

	test('the same transactions in XML read the same; entities of the five predefined kinds are decoded', () => {
		const sgml = read(ofxSgml(LINES)).lines.map(({ accountKey: _, accountLabel: __, ...l }) => l)
		const xml = read(ofxXml(LINES)).lines.map(({ accountKey: _, accountLabel: __, ...l }) => l)
		expect(xml).toEqual(sgml)
		const amp = read(ofxXml([{ id: 'A', date: '2026-03-02', amount: '10.00', name: 'Smith & Sons <LLC>' }]))
		expect(amp.lines[0]!.name).toBe('Smith & Sons <LLC>')
	})

	test('the account number is never kept: a hash keys it, its last four digits show it', () => {
		const [line] = read(ofxSgml(LINES.slice(0, 1), { account: '000123456789' })).lines
		expect(line!.accountLabel).toBe('••6789')
		expect(line!.accountKey).toMatch(/^[0-9a-f]{32}$/)
		expect(JSON.stringify(line)).not.toContain('123456789')
		const other = read(ofxSgml(LINES.slice(0, 1), { account: '000999996789' })).lines[0]!
		expect(other.accountKey).not.toBe(line!.accountKey)
	})

	test('a line without an id gets one from its fields; two identical such lines stay two; a repeated id is one', () => {
		const result = read(
			ofxSgml([
				{ date: '2026-03-02', amount: '20.00', name: 'VENMO CASHOUT' },
				{ date: '2026-03-02', amount: '20.00', name: 'VENMO CASHOUT' },
				{ id: 'X', date: '2026-03-03', amount: '1.00', name: 'A' },
				{ id: 'X', date: '2026-03-03', amount: '1.00', name: 'A' },
			]),
		)
		expect(result.lines.map((l) => l.fitId)).toEqual([expect.stringMatching(/^h:[0-9a-f]{40}:1$/), expect.stringMatching(/:2$/), 'X'])
		expect(read(ofxSgml([{ date: '2026-03-02', amount: '20.00', name: 'VENMO CASHOUT' }])).lines[0]!.fitId).toBe(result.lines[0]!.fitId)
	})

	test('a transaction whose date or amount does not read is counted, never guessed', () => {
		const result = read(
			ofxSgml([
				{ id: '1', date: '2026-03-02', amount: '20.00', name: 'OK' },
				{ id: '2', date: '2026-02-30', amount: '20.00', name: 'Bad day' },
				{ id: '3', date: '2026-03-02', amount: 'twenty', name: 'Bad amount' },
			]),
		)
		expect(result.lines.map((l) => l.fitId)).toEqual(['1'])
		expect(result.unreadable).toBe(2)
	})

	test('QFX (Quicken) is OFX with an INTU.BID: read the same', () => {
		const qfx = ofxSgml(LINES).replace('<SONRS>', '<SONRS><INTU.BID>3000')
		expect(isOfx(qfx)).toBe(true)
		expect(read(qfx).lines).toHaveLength(4)
	})
})

describe('hostile and wrong files', () => {
	test('a CSV, an empty text, a binary file, a statement without transactions: refused with their reason', () => {
		expect(parseOfx('Date,Amount\n2026-03-01,10')).toEqual({ ok: false, error: 'notOfx' })
		expect(parseOfx('   ')).toEqual({ ok: false, error: 'empty' })
		expect(parseOfx('OFXHEADER:100\n\0\0<OFX>')).toEqual({ ok: false, error: 'notOfx' })
		expect(parseOfx(ofxSgml([]))).toEqual({ ok: false, error: 'noTransactions' })
	})

	test('a document type or an entity declaration (billion laughs, external entities) refuses the file, nothing is expanded', () => {
		const laughs = `<?xml version="1.0"?><!DOCTYPE OFX [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<?OFX OFXHEADER="200"?><OFX><STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20260301</DTPOSTED><TRNAMT>1.00</TRNAMT><NAME>&b;</NAME></STMTTRN></OFX>`
		expect(parseOfx(laughs)).toEqual({ ok: false, error: 'declarations' })
		const external = ofxXml(LINES).replace('<OFX>', '<!DOCTYPE OFX SYSTEM "file:///etc/passwd"><OFX>')
		expect(parseOfx(external)).toEqual({ ok: false, error: 'declarations' })
		// An undeclared reference is left as written, never looked up.
		const undeclared = read(ofxXml([{ id: 'A', date: '2026-03-02', amount: '10.00', name: 'x' }]).replace('<NAME>x', '<NAME>&xxe;'))
		expect(undeclared.lines[0]!.name).toBe('&xxe;')
	})

	test('more transactions than allowed: refused', () => {
		const many = Array.from({ length: MAX_OFX_TRANSACTIONS + 1 }, (_, i) => ({ id: `T${i}`, date: '2026-03-02', amount: '1.00' }))
		expect(parseOfx(ofxSgml(many))).toEqual({ ok: false, error: 'tooManyTransactions' })
	})

	test('a huge value is cut, and pathological texts read in linear time', () => {
		const long = read(ofxSgml([{ id: 'L', date: '2026-03-02', amount: '1.00', name: 'N'.repeat(100_000) }]))
		expect(long.lines[0]!.name).toHaveLength(255)
		const started = performance.now()
		// Unclosed tags, a long run of '<', a million tiny elements: none may take long.
		expect(parseOfx(`OFXHEADER:100\n<OFX>${'<'.repeat(2_000_000)}`).ok).toBe(false)
		expect(parseOfx(`OFXHEADER:100\n<OFX><STMTTRN>${'<A>1'.repeat(500_000)}`).ok).toBe(false)
		expect(parseOfx(`OFXHEADER:100\n<OFX>${'&#1234567;'.repeat(200_000)}`).ok).toBe(false)
		expect(performance.now() - started).toBeLessThan(3000)
	})
})

describe('what a statement line is', () => {
	const kind = (line: Partial<Parameters<typeof classifyBankLine>[0]>) =>
		classifyBankLine({ amount: '10.00', name: null, memo: null, trnType: 'CREDIT', ...line })

	test('payment apps cash-outs, by the words banks write', () => {
		expect(kind({ name: 'VENMO', memo: 'CASHOUT PPD ID: 5264681992' })).toEqual({ kind: 'cashout', rail: 'Venmo' })
		expect(kind({ name: 'VENMO *STANDARD TRANSFER' })).toEqual({ kind: 'cashout', rail: 'Venmo' })
		expect(kind({ name: 'CASH APP*CASH OUT' })).toEqual({ kind: 'cashout', rail: 'CashApp' })
		expect(kind({ name: 'SQUARE INC', memo: 'SQ CASH' })).toEqual({ kind: 'cashout', rail: 'CashApp' })
		expect(kind({ name: 'PAYPAL TRANSFER' })).toEqual({ kind: 'cashout', rail: 'PayPal' })
	})

	test('transfers between own accounts, by type or by words; never a cash-out when it is money out or Zelle', () => {
		expect(kind({ trnType: 'XFER', name: 'Internal' })).toEqual({ kind: 'ownTransfer', rail: null })
		expect(kind({ name: 'Online Transfer from SAV ...4321' })).toEqual({ kind: 'ownTransfer', rail: null })
		expect(kind({ amount: '-50.00', name: 'Transfer to Checking x5678' })).toEqual({ kind: 'ownTransfer', rail: null })
		expect(kind({ amount: '-50.00', name: 'VENMO PAYMENT' })).toEqual({ kind: 'debit', rail: null })
		expect(kind({ name: 'Zelle payment from VENMO SMITH' })).toEqual({ kind: 'deposit', rail: null })
		expect(kind({ name: 'ACME PAYROLL' })).toEqual({ kind: 'deposit', rail: null })
	})
})
