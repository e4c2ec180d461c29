/**
 * Picture uploads under load (app/.server/images.ts, app/.server/storage/): an owner, or a script
 * with their session, sends 50 logo uploads at once, in two formats. Every answer is a redirect
 * with a translated message (the logo updated, too many uploads, or the server busy), never a
 * 5xx; the logo shown afterwards is a stored picture, whole.
 */
import sharp from 'sharp'
import { expect, test } from '@playwright/test'
import { withDatabase } from '../e2e/db.ts'
import { mergeCookies, raw } from './http.ts'
import { baseURLOf } from './walk.ts'
import { signUp } from './world.ts'

const HERE = '/app/settings/organization'

/** A multipart body as a browser sends the logo form. */
async function logoForm(bytes: Buffer, name: string, type: string) {
	const form = new FormData()
	form.set('intent', 'logo-upload')
	form.set('logo', new File([new Uint8Array(bytes)], name, { type }))
	const request = new Request('http://local/', { method: 'POST', body: form })
	return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! }
}

test('50 logo uploads at once: every answer is a redirect with a message, never a 5xx, and the logo shown is a stored picture', async () => {
	const base = baseURLOf()
	const owner = await signUp(base, 'Upload Racer')
	const picture = (colour: string) => sharp({ create: { width: 600, height: 400, channels: 3, background: colour } })
	const forms = await Promise.all([
		picture('#2255aa')
			.png()
			.toBuffer()
			.then((b) => logoForm(b, 'logo.png', 'image/png')),
		picture('#aa5522')
			.jpeg()
			.toBuffer()
			.then((b) => logoForm(b, 'logo.jpg', 'image/jpeg')),
	])
	const answers = await Promise.all(
		Array.from({ length: 50 }, (_, i) => {
			const form = forms[i % 2]!
			return raw(base, 'POST', HERE, { headers: { 'content-type': form.contentType, cookie: owner.cookie }, body: form.body })
		}),
	)
	expect(answers.map((a) => a.status).filter((status) => status >= 500)).toEqual([])
	expect(new Set(answers.map((a) => `${a.status} ${a.headers.location}`))).toEqual(new Set([`302 ${HERE}`]))
	// What each one told the user: the page it leads to, read with the message cookie it set.
	const messages = await Promise.all(
		answers.map(async (answer) => {
			const page = await raw(base, 'GET', HERE, { headers: { cookie: mergeCookies(owner.cookie, answer.headers) } })
			return ['Logo updated', 'Too many uploads', 'Server busy'].filter((message) => page.body.includes(message))
		}),
	)
	expect(messages.filter((found) => found.length !== 1)).toEqual([])
	const updated = messages.filter(([message]) => message === 'Logo updated').length
	expect(updated).toBeGreaterThan(0)
	// The upload budget (30 an hour) holds under a burst too.
	expect(updated).toBeLessThanOrEqual(30)
	const logoUrl = await withDatabase(async (db) => {
		const { rows } = await db.query<{ logo_url: string | null }>(
			`select o.logo_url from public.organizations o join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		return rows[0]!.logo_url
	})
	expect(logoUrl).toMatch(/^\/storage\/logos\/[0-9a-f-]+\/logo\.(png|jpg)\?v=/)
	const served = await fetch(new URL(logoUrl!, base))
	expect(served.status).toBe(200)
	const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata()
	// A 600×400 logo fitted whole inside the 512×256 box: 384×256, its 3:2 kept.
	expect([meta.format === 'png' || meta.format === 'jpeg', meta.width, meta.height]).toEqual([true, 384, 256])
})
