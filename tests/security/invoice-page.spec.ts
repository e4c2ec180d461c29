/**
 * An invoice's public page and PDF (/i/{token}; docs/security.md, Public pages by token): the
 * token is the whole key. It opens its own invoice and nothing of another organization; any
 * other string (a token changed by one character, in capitals, cut short, the SHA-256 the
 * database keeps, another organization's invoice id) gets the same 404 with nothing of either
 * invoice; every answer is kept out of caches and search engines; a POST changes nothing.
 */
import { createHash, randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { withDatabase } from '../e2e/db.ts'
import { FORM, raw } from './http.ts'
import { baseURLOf } from './walk.ts'
import { fingerprint, makeOrg, MARKER, type Org } from './world.ts'

/** Sends the organization's draft invoice as its owner (public.send_invoice); returns the page's token. */
async function send(org: Org) {
	const token = randomBytes(32).toString('hex')
	await withDatabase(async (db) => {
		await db.query('begin')
		await db.query(`select set_config('request.jwt.claim.sub', $1, true)`, [org.userId])
		await db.query('select public.send_invoice($1, $2, null)', [org.invoiceId, createHash('sha256').update(token).digest('hex')])
		await db.query('commit')
	})
	return token
}

function expectPrivate(headers: Record<string, string | string[] | undefined>, label: string) {
	expect(String(headers['cache-control']), label).toContain('no-store')
	expect(String(headers['x-robots-tag']), label).toContain('noindex')
	expect(headers['set-cookie'], label).toBeUndefined()
}

test('an invoice’s token opens that invoice only; every other string gets the same 404 with nothing in it', async () => {
	const base = baseURLOf()
	const a = await makeOrg(base, 'Invoice A', 'ZqxOrgAInvoice')
	const b = await makeOrg(base, 'Invoice B', MARKER)
	const [tokenA, tokenB] = [await send(a), await send(b)]

	const own = await raw(base, 'GET', `/i/${tokenA}`)
	expect(own.status).toBe(200)
	expectPrivate(own.headers, 'the page')
	expect(own.body).toContain('ZqxOrgAInvoiceInvoiceLine')
	expect(own.body).toContain('<meta name="referrer" content="no-referrer"')
	expect(own.body).not.toContain(MARKER)
	const pdf = await raw(base, 'GET', `/i/${tokenA}/invoice.pdf`)
	expect(pdf.status).toBe(200)
	expect(pdf.headers['content-type']).toBe('application/pdf')
	expectPrivate(pdf.headers, 'the PDF')
	// B's own token shows B's invoice: the page is keyed by the token alone.
	expect((await raw(base, 'GET', `/i/${tokenB}`)).body).toContain(`${MARKER}InvoiceLine`)

	const flip = (t: string) => t.slice(0, -1) + (t.endsWith('0') ? '1' : '0')
	const others = [
		flip(tokenA),
		tokenA.toUpperCase(),
		tokenA.slice(0, 63),
		`${tokenA}0`,
		createHash('sha256').update(tokenA).digest('hex'),
		b.invoiceId,
		'%00',
		encodeURIComponent("' or 1=1--"),
	]
	const texts = new Set<string>()
	for (const token of others) {
		if (token === '%00') {
			// A NUL byte is refused before any route (the request guard's 400).
			for (const path of [`/i/${token}`, `/i/${token}/invoice.pdf`]) expect((await raw(base, 'GET', path)).status, path).toBe(400)
			continue
		}
		const page = await raw(base, 'GET', `/i/${token}`)
		expect(page.status, token).toBe(404)
		expectPrivate(page.headers, token)
		expect(page.body, token).toContain('Invoice not found')
		for (const secret of ['ZqxOrgAInvoice', MARKER]) expect(page.body, token).not.toContain(secret)
		const file = await raw(base, 'GET', `/i/${token}/invoice.pdf`)
		expect(file.status, token).toBe(404)
		expectPrivate(file.headers, `${token}.pdf`)
		texts.add(file.body)
	}
	expect(texts.size, 'one answer for every miss: nothing tells a malformed token from a wrong one').toBe(1)

	// The page takes no post: nothing changes.
	const before = await fingerprint(a.orgId)
	for (const path of [`/i/${tokenA}`, `/i/${tokenA}/invoice.pdf`]) {
		const post = await raw(base, 'POST', path, { headers: FORM, body: 'intent=void' })
		expect(post.status, path).toBeGreaterThanOrEqual(400)
		expect(post.status, path).toBeLessThan(500)
	}
	expect(await fingerprint(a.orgId)).toBe(before)
})
