/**
 * The notice parsers against a fixture mailbox of synthetic messages written in each sender's
 * layout (tests/unit/fixtures/mailbox): plain text, HTML only, quoted-printable, base64,
 * forwarded, a spoofed sender, outgoing notices, requests, marketing, and two id-less Zelle
 * notices of the same amount on the same day; and the layouts of real notices (issue 47), each
 * fixture naming its source in an X-Fixture-Source header.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { htmlToText, readNotice } from '#app/.server/payments/email-sync/notice.ts'
import { failsAuthentication, parseNotice, parserFor } from '#app/.server/payments/email-sync/parsers/index.ts'
import { money } from '#app/.server/payments/email-sync/parsers/common.ts'

const DIR = path.resolve('tests/unit/fixtures/mailbox')
const OWN = ['owner@example.test']

async function outcome(file: string, timeZone = 'UTC') {
	return parseNotice(await readNotice(readFileSync(path.join(DIR, file))), { ownAddresses: OWN, timeZone })
}

const payment = (fields: Record<string, unknown>) => ({ kind: 'payment', payment: expect.objectContaining({ source: 'email', ...fields }) })

describe('received-payment notices become payments', () => {
	test.each([
		[
			'01-venmo-paid-you.eml',
			{
				method: 'Venmo',
				issuer: 'venmo',
				payer: 'Jane Doe',
				amount: '25.00',
				memo: 'Dinner 🍕 and drinks',
				externalId: '4012345678901234567',
				date: '2026-11-20',
			},
		],
		[
			'02-venmo-request-paid-html.eml',
			{ method: 'Venmo', payer: 'Carlos Ruiz', amount: '80.00', memo: 'Guitar lesson & strings', externalId: '3998877665544332211' },
		],
		[
			'04-cashapp-base64.eml',
			{ method: 'CashApp', issuer: 'cashapp', payer: 'Ana Silva', amount: '40.00', memo: 'Haircut', externalId: 'D2K9QX7' },
		],
		[
			'06-paypal-got-money.eml',
			{
				method: 'PayPal',
				issuer: 'paypal',
				payer: 'Robert Chen',
				amount: '20.00',
				memo: 'Thanks for the lesson',
				externalId: '1AB23456CD789012E',
			},
		],
		[
			'07-paypal-direct-html.eml',
			{ method: 'PayPal', payer: 'Lucy Gray', amount: '150.00', memo: 'Deposit for the June event', externalId: '9ZY87654XW321098V' },
		],
		[
			'08-chase-zelle.eml',
			{ method: 'Zelle', issuer: 'chase', payer: 'JOHN SMITH', amount: '1250.00', memo: 'November rent', externalId: '21874563210' },
		],
		['09-bofa-zelle-1.eml', { method: 'Zelle', issuer: 'bofa', payer: 'Mary Jones', amount: '60.00', memo: 'Cleaning', externalId: null }],
		[
			'11-capitalone-zelle-html.eml',
			{ method: 'Zelle', issuer: 'capitalone', payer: 'Peter Park', amount: '35.50', memo: 'Tutoring – week 3', externalId: null },
		],
		['12-td-zelle.eml', { method: 'Zelle', issuer: 'td', payer: 'Linda Kim', amount: '90.00', memo: null, externalId: 'TDZ84736251' }],
		[
			'13-wellsfargo-zelle.eml',
			{ method: 'Zelle', issuer: 'wellsfargo', payer: 'Omar Haddad', amount: '200.00', memo: 'Invoice 1042', externalId: 'WFZ1234567' },
		],
		// Issue 47: the layouts of real notices (each fixture names its source).
		[
			'22-capitalone-someone-sent-you.eml',
			{ method: 'Zelle', issuer: 'capitalone', payer: 'DANA WHITFIELD', amount: '5.00', memo: 'Lesson deposit', externalId: null },
		],
		[
			'23-chase-zelle-empty-memo.eml',
			{ method: 'Zelle', issuer: 'chase', payer: 'MARTA QUINTERO', amount: '75.00', memo: null, externalId: '24681357902' },
		],
		[
			'24-paypal-gmail-text.eml',
			{ method: 'PayPal', payer: 'Nadia Ferraro', amount: '32.50', memo: 'Pottery class', externalId: '4KX81726MB3904712' },
		],
		[
			'25-venmo-note-wrapped.eml',
			{
				method: 'Venmo',
				payer: 'Owen Marsh',
				amount: '60.00',
				memo: 'Two private lessons this week plus the sheet music you lent me last month',
				externalId: '4019283746501928374',
			},
		],
	])('%s', async (file, fields) => {
		expect(await outcome(file)).toEqual(payment(fields))
	})

	test("Capital One's headline is no payer, whether it is the subject or only the body's first line", async () => {
		const notice = await readNotice(readFileSync(path.join(DIR, '22-capitalone-someone-sent-you.eml')))
		for (const subject of ['Good news: Someone sent you money with Zelle®.', 'Someone sent you money with Zelle®']) {
			expect(parseNotice({ ...notice, subject })).toEqual(payment({ payer: 'DANA WHITFIELD', amount: '5.00' }))
		}
		const withoutSentence = notice.text.replace(/^DANA.*$/m, '')
		expect(parseNotice({ ...notice, text: withoutSentence })).toEqual({
			kind: 'unreadable',
			subject: 'Someone sent you money with Zelle®',
			sender: 'capitalone@notification.capitalone.com',
		})
	})

	test("a memo on the line under its label is read; an empty one never takes the bank's next sentence", async () => {
		const notice = await readNotice(readFileSync(path.join(DIR, '23-chase-zelle-empty-memo.eml')))
		const filled = notice.text.replace('Memo\n', 'Memo\nCleaning, November\n')
		expect(parseNotice({ ...notice, text: filled })).toEqual(payment({ memo: 'Cleaning, November' }))
	})

	test("a forwarded notice from the owner's own address is read from the forwarded part", async () => {
		expect(await outcome('16-forwarded-venmo.eml')).toEqual(
			payment({
				method: 'Venmo',
				payer: 'Tom Baker',
				amount: '45.00',
				memo: 'Yoga class',
				externalId: '4011111111111111111',
				date: '2026-11-19',
			}),
		)
	})

	test('two Zelle notices without an id, same day, same amount, same payer: two payments, told apart by their message', async () => {
		const first = await outcome('09-bofa-zelle-1.eml', 'America/New_York')
		const second = await outcome('10-bofa-zelle-2.eml', 'America/New_York')
		expect(first).toEqual(payment({ payer: 'Mary Jones', amount: '60.00', date: '2026-11-20', externalId: null }))
		expect(second).toEqual(payment({ payer: 'Mary Jones', amount: '60.00', date: '2026-11-20', externalId: null }))
		const ids = [first, second].map((o) => (o.kind === 'payment' ? o.payment.noticeId : null))
		expect(ids[0]).toBeTruthy()
		expect(ids[0]).not.toBe(ids[1])
	})

	test("the day is taken in the organization's timezone", async () => {
		// Fri 20 Nov 2026 20:04 UTC is still the 20th in New York and already the 21st in Tokyo.
		expect(await outcome('01-venmo-paid-you.eml', 'America/New_York')).toEqual(payment({ date: '2026-11-20' }))
		expect(await outcome('01-venmo-paid-you.eml', 'Asia/Tokyo')).toEqual(payment({ date: '2026-11-21' }))
	})
})

describe('everything else is ignored or kept as not understood, never a payment', () => {
	test.each([
		['03-venmo-outgoing.eml', { kind: 'ignored', reason: 'outgoing' }],
		['21-chase-outgoing.eml', { kind: 'ignored', reason: 'outgoing' }],
		['05-cashapp-request.eml', { kind: 'ignored', reason: 'request' }],
		['18-venmo-marketing.eml', { kind: 'ignored', reason: 'other' }],
		['14-spoofed-venmo.eml', { kind: 'ignored', reason: 'spoofed' }],
		['15-lookalike-domain.eml', { kind: 'ignored', reason: 'unknown_sender' }],
		['17-forwarded-by-stranger.eml', { kind: 'ignored', reason: 'unknown_sender' }],
		['19-venmo-new-template.eml', { kind: 'unreadable', subject: 'You have a new payment', sender: 'venmo@venmo.com' }],
		['20-paypal-euros.eml', { kind: 'unreadable', subject: 'Hans Weber sent you €20.00 EUR', sender: 'service@paypal.com' }],
		// A bank whose template is not known: listed as not understood, never read by a guessed layout.
		['26-pnc-zelle-unknown-template.eml', { kind: 'unreadable', subject: 'You received a Zelle payment', sender: 'pncalerts@pnc.com' }],
	])('%s', async (file, expected) => {
		expect(await outcome(file)).toEqual(expected)
	})

	test('the whole fixture mailbox: 16 payments, 7 ignored, 3 not understood', async () => {
		const files = readdirSync(DIR).filter((f) => f.endsWith('.eml'))
		const kinds = await Promise.all(files.map(async (f) => (await outcome(f)).kind))
		expect({
			payment: kinds.filter((k) => k === 'payment').length,
			ignored: kinds.filter((k) => k === 'ignored').length,
			unreadable: kinds.filter((k) => k === 'unreadable').length,
		}).toEqual({ payment: 16, ignored: 7, unreadable: 3 })
	})
})

describe('the checks behind them', () => {
	test("the sender's domain must be the provider's or one of its subdomains", () => {
		expect(parserFor('venmo@venmo.com')?.issuer).toBe('venmo')
		expect(parserFor('onlinebanking@ealerts.bankofamerica.com')?.issuer).toBe('bofa')
		expect(parserFor('venmo@venmo.com.evil.example')).toBeNull()
		expect(parserFor('venmo@notvenmo.com')).toBeNull()
		// The ten largest US banks' Zelle senders are all known (docs/product.md says which templates are read).
		const banks = [
			'chase.com',
			'bankofamerica.com',
			'capitalone.com',
			'wellsfargo.com',
			'td.com',
			'navyfederal.org',
			'usbank.com',
			'pnc.com',
		]
		for (const domain of [...banks, 'citi.com', 'truist.com']) expect(parserFor(`alerts@notify.${domain}`)?.method).toBe('Zelle')
	})

	test('a bank whose template is not known: its Zelle notices are not understood, its other mail is not a payment', () => {
		const notice = {
			from: 'alerts@truist.com',
			fromName: 'Truist',
			date: new Date('2026-11-20T12:00:00Z'),
			messageId: '<t@x>',
			authResults: null,
		}
		expect(parseNotice({ ...notice, subject: 'Zelle® payment received', text: 'Jo Lee sent you $20.00' })).toMatchObject({
			kind: 'unreadable',
		})
		expect(parseNotice({ ...notice, subject: 'You sent $20.00 with Zelle®', text: '' })).toEqual({ kind: 'ignored', reason: 'outgoing' })
		expect(parseNotice({ ...notice, subject: 'Your statement is ready', text: 'Sign in to see it.' })).toEqual({
			kind: 'ignored',
			reason: 'other',
		})
	})

	test('Authentication-Results: DMARC failure, or neither DKIM nor SPF passing, is spoofed; no header says nothing', () => {
		expect(failsAuthentication(null)).toBe(false)
		expect(failsAuthentication('mx; dkim=pass header.d=venmo.com; spf=pass; dmarc=pass')).toBe(false)
		expect(failsAuthentication('mx; dkim=pass header.d=venmo.com; spf=softfail')).toBe(false)
		expect(failsAuthentication('mx; dkim=fail; spf=pass; dmarc=fail')).toBe(true)
		expect(failsAuthentication('mx; dkim=none; spf=fail')).toBe(true)
	})

	test('amounts: thousands separators, missing cents, nothing that is not an amount', () => {
		expect(money('$1,250.5')).toBe('1250.50')
		expect(money('$40')).toBe('40.00')
		expect(money('$0.00')).toBeNull()
		expect(money('12,34')).toBeNull()
		expect(money('forty')).toBeNull()
	})

	test('an HTML-only body is read as text: blocks become lines, entities decoded, styles dropped', () => {
		expect(htmlToText('<style>p{}</style><p>A&amp;B</p><p>Zelle&reg; &#36;5</p>')).toBe('A&B\nZelle® $5')
	})
})
