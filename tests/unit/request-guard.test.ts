import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { exceedsListIndex, inspectFields, inspectRequest, MAX_FIELDS, MAX_FORM_BYTES, MAX_LIST_INDEX } from '#app/.server/request-guard.ts'

const post = (body: BodyInit | null, type?: string, headers: Record<string, string> = {}) =>
	new Request('http://app.test/app/transactions?edit=1', {
		method: 'POST',
		body,
		headers: { ...(type ? { 'content-type': type } : {}), ...headers },
	})
const FORM = 'application/x-www-form-urlencoded'

describe('the request guard', () => {
	test('lets an ordinary form post and any GET through', async () => {
		expect(await inspectRequest(post('intent=save&rows%5B0%5D.amount=12.50', FORM))).toBeNull()
		expect(await inspectRequest(new Request('http://app.test/app/transactions?q=ana'))).toBeNull()
		expect(await inspectRequest(post(`intent=save&_org=${crypto.randomUUID()}`, FORM))).toBeNull()
	})

	test.each([
		['JSON', post('{"intent":"save"}', 'application/json'), 415],
		['text/plain', post('intent=save', 'text/plain'), 415],
		['no body and no type', post(null), 415],
		['malformed multipart', post('--x\r\nnonsense', 'multipart/form-data; boundary=y'), 400],
		['invalid UTF-8', post(new Uint8Array([0x69, 0x3d, 0xff, 0xfe]), FORM), 400],
		['a NUL byte in a value', post('q=a%00b', FORM), 400],
		['a NUL byte in a name', post('a%00=1', FORM), 400],
		['a NUL byte in the URL', new Request('http://app.test/app/transactions?q=%00'), 400],
		['a 10-digit row index', post('intent=save&rows%5B4294967294%5D.amount=1', FORM), 413],
		['a zero-padded huge index', post('rows%5B0000000004294967294%5D.amount=1', FORM), 413],
		[
			'an index in conform intent',
			post(`__intent__=${encodeURIComponent('{"type":"insert","payload":{"name":"rows","index":4294967294}}')}`, FORM),
			413,
		],
		['a declared body over the cap', post('a=1', FORM, { 'content-length': String(MAX_FORM_BYTES + 1) }), 413],
		['an organization field that is not a UUID', post("intent=save&_org=1' or '1'='1", FORM), 400],
		['two organization fields', post(`_org=${crypto.randomUUID()}&_org=${crypto.randomUUID()}`, FORM), 400],
	])('refuses %s', async (_, request, status) => {
		expect((await inspectRequest(request))?.status).toBe(status)
	})

	test('counts a body without a length while it streams, and stops at the cap', async () => {
		const chunk = new TextEncoder().encode(`x=${'a'.repeat(64 * 1024)}`)
		let sent = 0
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				sent += chunk.byteLength
				if (sent > MAX_FORM_BYTES * 4) controller.close()
				else controller.enqueue(chunk)
			},
		})
		const request = new Request('http://app.test/auth', {
			method: 'POST',
			body,
			headers: { 'content-type': FORM },
			duplex: 'half',
		} as RequestInit)
		expect(await inspectRequest(request)).toEqual({ status: 413, reason: 'tooLarge' })
		expect(sent).toBeLessThan(MAX_FORM_BYTES * 2)
	})

	test.each([
		['{bad', 400],
		['{"type":"insert"}', 400],
		['"x"', 400],
		['null', 400],
		['{"type":"drop","payload":{}}', 400],
		['{"type":"remove","payload":{"name":5,"index":1}}', 400],
		['{"type":"remove","payload":{"name":"rows","index":-1}}', 400],
		['{"type":"reorder","payload":{"name":"rows","from":0,"to":1.5}}', 400],
		['{"type":"remove","payload":{"name":"rows","index":1e9}}', 413],
	])('a conform intent it cannot read is refused: %s', (intent, status) => {
		expect(inspectFields([['__intent__', intent]])?.status).toBe(status)
	})

	test('the intents conform sends pass', () => {
		for (const intent of [
			{ type: 'insert', payload: { name: 'rows' } },
			{ type: 'insert', payload: { name: 'rows', index: 3, defaultValue: { amount: '' } } },
			{ type: 'remove', payload: { name: 'rows', index: 0 } },
			{ type: 'reorder', payload: { name: 'rows', from: 2, to: 0 } },
			{ type: 'update', payload: { name: 'rows[0].amount', value: '1' } },
			{ type: 'reset', payload: {} },
			{ type: 'validate', payload: { name: 'email' } },
		]) {
			expect(inspectFields([['__intent__', JSON.stringify(intent)]])).toBeNull()
		}
		expect(inspectFields([['__state__', '{"validated":{}}']])).toBeNull()
		expect(inspectFields([['__state__', '{bad']])?.status).toBe(400)
	})

	test('too many fields are refused', () => {
		const fields = Array.from({ length: MAX_FIELDS + 1 }, (_, i): [string, string] => [`f${i}`, '1'])
		expect(inspectFields(fields)?.reason).toBe('tooManyFields')
	})

	test('the index bound holds for every index written in any form', () => {
		fc.assert(
			fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.nat({ max: 5 }), fc.constantFrom('', ' '), (index, zeros, space) => {
				const name = `rows[${space}${'0'.repeat(zeros)}${index}${space}].amount`
				expect(exceedsListIndex(name)).toBe(index > BigInt(MAX_LIST_INDEX))
			}),
			{ numRuns: 3000 },
		)
	})

	test('the index bound also holds inside conform intents, whatever the number looks like', () => {
		for (const index of ['4294967294', '1e9', '1E+12', '99999999999999999999999']) {
			expect(exceedsListIndex(`{"type":"remove","payload":{"name":"rows","index":${index}}}`)).toBe(true)
		}
		expect(exceedsListIndex('{"type":"remove","payload":{"name":"rows","index":3}}')).toBe(false)
	})
})
