/**
 * Custom parsing rules' label reader (app/.server/payments/email-sync/parsers/custom.ts) and the
 * form's checks (app/lib/schemas/parsing-rules.ts): amounts as people write them, fields it cannot
 * find, and hostile text (a 1 MB line, control characters, labels repeated everywhere) read in
 * bounded time. And the sync's side: a rule reads only senders no built-in parser knows.
 */
import { describe, expect, test } from 'vitest'
import type { Notice } from '#app/.server/payments/email-sync/notice.ts'
import {
	customReader,
	readAfterLabel,
	readAmount,
	readWithRule,
	ruleFor,
	senderMatches,
	type ParsingRule,
} from '#app/.server/payments/email-sync/parsers/custom.ts'
import { parseNotice } from '#app/.server/payments/email-sync/parsers/index.ts'
import { BLANK_PARSING_RULE, MAX_SAMPLE_CHARS, parseParsingRule, parseSample } from '#app/lib/schemas/parsing-rules.ts'

const RULE: ParsingRule = {
	id: 'r1',
	name: 'Credit union',
	sender: '@cu.example',
	subjectContains: 'deposit',
	amountLabel: 'Amount:',
	payerLabel: 'From:',
	idLabel: 'Reference:',
	paymentMethod: 'Other',
	defaultCategory: null,
}

const notice = (over: Partial<Notice> = {}): Notice => ({
	from: 'alerts@cu.example',
	fromName: 'CU',
	subject: 'New deposit received',
	date: new Date('2031-03-04T15:00:00Z'),
	text: 'Hello,\nAmount: $1,234.56\nFrom: Jane Doe\nReference: TX-99812\n',
	messageId: '<m1@cu.example>',
	authResults: null,
	...over,
})

describe('amounts as the CSV importer reads them', () => {
	test.each([
		['$1,234.56', '1234.56'],
		['1.234,56', '1234.56'],
		['USD 20', '20.00'],
		['20 USD', '20.00'],
		['$20.00 from Jane', '20.00'],
		['US$ 1,500', '1500.00'],
		['$5.', '5.00'],
	])('%s reads %s', (text, value) => {
		expect(readAmount(text)).toBe(value)
	})

	test.each([['-$20.00'], ['($45.00)'], ['$0.00'], ['twenty dollars'], [''], ['$99,999,999,999.00']])('%s is no amount', (text) => {
		expect(readAmount(text)).toBeNull()
	})
})

describe('values after their labels', () => {
	test('on the label line, to the end of it', () => {
		expect(readWithRule(RULE, notice().text)).toEqual({ ok: true, amount: '1234.56', payer: 'Jane Doe', externalId: 'TX-99812' })
	})

	test('labels are found in any case, and a value under its label (an HTML table read as text)', () => {
		const text = 'AMOUNT:\n\n$75.00\nfrom:\nJohn Q. Public\nreference:\n#A1B2C3'
		expect(readWithRule(RULE, text)).toEqual({ ok: true, amount: '75.00', payer: 'John Q. Public', externalId: 'A1B2C3' })
	})

	test('a value stops at a tab, a bar or the next label on the same line', () => {
		expect(readWithRule(RULE, 'Amount: $10.00 | From: Ann Lee Reference: Z-1')).toEqual({
			ok: true,
			amount: '10.00',
			payer: 'Ann Lee',
			externalId: 'Z-1',
		})
		expect(readAfterLabel('From: Ann\tMemo: rent', 'From:')).toBe('Ann')
	})

	test('sentence labels: "You received" and "from"', () => {
		const rule = { amountLabel: 'You received', payerLabel: 'sent by', idLabel: null }
		expect(readWithRule(rule, 'You received USD 20 today, sent by Maria Souza.')).toEqual({
			ok: true,
			amount: '20.00',
			payer: 'Maria Souza',
			externalId: null,
		})
	})

	test('missing fields are named', () => {
		expect(readWithRule(RULE, 'Amount: soon\nNothing else here')).toEqual({
			ok: false,
			missing: ['amount', 'payer', 'id'],
			amount: null,
			payer: null,
			externalId: null,
		})
		expect(readWithRule({ ...RULE, idLabel: null }, 'Amount: $3\nFrom: Bo')).toMatchObject({ ok: true, externalId: null })
		expect(readWithRule(RULE, 'Amount: $3\nFrom: Bo\nReference: ***')).toMatchObject({ ok: false, missing: ['id'] })
	})
})

describe('hostile text', () => {
	test('a 1 MB line, without and with the label, is read in bounded time', () => {
		const line = 'x'.repeat(1_000_000)
		const started = performance.now()
		expect(readWithRule(RULE, line)).toMatchObject({ ok: false, missing: ['amount', 'payer', 'id'] })
		const withLabel = `Amount: $12.00 ${line}\nFrom: ${line}`
		const reading = readWithRule(RULE, withLabel)
		expect(reading.amount).toBe('12.00')
		expect((reading.payer ?? '').length).toBeLessThanOrEqual(200)
		expect(performance.now() - started).toBeLessThan(1_000)
	})

	test('control characters never reach a value', () => {
		const reading = readWithRule(RULE, 'Amount: $8.00\u0000\u0007\nFrom: Eve\u001b[31m Evil\u202e\nReference: R\u0000-1')
		expect(reading.amount).toBe('8.00')
		expect(reading.payer).toBe('Eve [31m Evil')
		expect(reading.externalId).toBe('R')
	})

	test('labels repeated many times, and a label made of pattern characters, are literal text', () => {
		const text = `${'Amount: nothing\n'.repeat(50_000)}From: Ann`
		const started = performance.now()
		expect(readWithRule(RULE, text)).toMatchObject({ ok: false, missing: ['amount', 'id'], payer: 'Ann' })
		const rule = { amountLabel: '(a+)+$', payerLabel: '.*', idLabel: '[' }
		expect(readWithRule(rule, `${'a'.repeat(100_000)}!\n(a+)+$ $4.00\n.* Bob\n[ 7`)).toEqual({
			ok: true,
			amount: '4.00',
			payer: 'Bob',
			externalId: '7',
		})
		expect(performance.now() - started).toBeLessThan(1_000)
	})
})

describe('which rule takes a notice', () => {
	test('a domain matches its subdomains, an exact address only itself', () => {
		expect(senderMatches({ sender: '@cu.example' }, 'a@mail.cu.example')).toBe(true)
		expect(senderMatches({ sender: '@cu.example' }, 'a@evilcu.example')).toBe(false)
		expect(senderMatches({ sender: 'pay@cu.example' }, 'PAY@cu.example')).toBe(true)
		expect(senderMatches({ sender: 'pay@cu.example' }, 'other@cu.example')).toBe(false)
	})

	test('the subject must contain the text; an exact address wins over a domain', () => {
		const exact = { ...RULE, id: 'r2', sender: 'alerts@cu.example', subjectContains: null }
		expect(ruleFor([RULE], notice({ subject: 'Newsletter' }))).toBeNull()
		expect(ruleFor([RULE, exact], notice())?.id).toBe('r2')
	})

	test('the sync: a rule reads an unknown sender, built-in senders always win, spoofed notices are refused', () => {
		const reader = customReader([RULE, { ...RULE, id: 'venmo', sender: '@venmo.com', subjectContains: null }])
		expect(parseNotice(notice(), { custom: reader, timeZone: 'America/New_York' })).toEqual({
			kind: 'payment',
			payment: expect.objectContaining({
				amount: '1234.56',
				payer: 'Jane Doe',
				externalId: 'TX-99812',
				method: 'Other',
				date: '2031-03-04',
				source: 'email',
			}),
		})
		expect(reader.read).toBe(1)
		// Venmo's own parser reads (or ignores) Venmo's mail, whatever a rule says.
		const venmo = parseNotice(notice({ from: 'venmo@venmo.com', subject: 'Your weekly summary' }), { custom: reader })
		expect(venmo).toEqual({ kind: 'ignored', reason: 'other' })
		expect(parseNotice(notice({ authResults: 'mx.example; dmarc=fail' }), { custom: reader })).toEqual({
			kind: 'ignored',
			reason: 'spoofed',
		})
		expect(parseNotice(notice({ text: 'Nothing to read' }), { custom: reader })).toMatchObject({ kind: 'unreadable' })
		expect(parseNotice(notice({ from: 'news@other.example' }), { custom: reader })).toEqual({ kind: 'ignored', reason: 'unknown_sender' })
		expect(reader.read).toBe(1)
	})
})

describe('the form', () => {
	const text = {
		...BLANK_PARSING_RULE,
		name: 'CU',
		sender: ' @CU.example ',
		amountLabel: 'Amount:',
		payerLabel: 'From:',
		paymentMethod: 'Wire Transfer',
	}

	test('a valid rule, its sender lower-cased', () => {
		expect(parseParsingRule(text)).toMatchObject({ ok: true, values: { sender: '@cu.example', idLabel: null, defaultCategory: null } })
	})

	test('bad values are named', () => {
		const result = parseParsingRule({
			...text,
			name: 'a\u0000b',
			sender: 'not an address',
			amountLabel: '',
			payerLabel: 'x'.repeat(101),
			paymentMethod: 'Gold',
			defaultCategory: 'lost',
		})
		expect(result).toEqual({
			ok: false,
			errors: {
				name: 'controlCharacters',
				sender: 'senderInvalid',
				amountLabel: 'amountLabelRequired',
				payerLabel: 'payerLabelTooLong',
				paymentMethod: 'paymentMethodInvalid',
				defaultCategory: 'defaultCategoryInvalid',
			},
		})
	})

	test('a sample over 100 KB is refused; an empty one is no sample', () => {
		expect(parseSample({ ...text, sample: 'x'.repeat(MAX_SAMPLE_CHARS + 1) })).toEqual({ ok: false, errors: { sample: 'sampleTooLarge' } })
		expect(parseSample({ ...text, sample: '  ' })).toEqual({ ok: true, sample: null })
	})
})
