/**
 * The avatar and the logo share one upload path (app/.server/images.ts, replacePicture): one
 * upload budget, the file stored before the row points at it, uploads of one row taken one after
 * the other, files the row no longer names removed. What a user or an attacker sees: a refused
 * or failed upload changes nothing, and the picture shown always exists.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { asSystem } from '#app/.server/db/index.ts'
import { PICTURE_UPLOADS } from '#app/.server/images.ts'
import { removeLogo, setLogo } from '#app/.server/organizations/settings.ts'
import { removeAvatar, setAvatar } from '#app/.server/account/profile.ts'
import { addMember, createUser, type TestUser } from './fixtures.ts'
import { useTemporaryDataDir } from './outbox.ts'

const dataDir = useTemporaryDataDir()

async function picture(format: 'png' | 'jpeg', colour = '#3366cc', width = 40, height = 30) {
	const base = sharp({ create: { width, height, channels: 3, background: colour } })
	return new Blob([new Uint8Array(await (format === 'png' ? base.png() : base.jpeg()).toBuffer())])
}

/** The logo and the avatar, driven alike: upload, remove, the URL the row holds, its folder on disk. */
const targets = {
	logo: {
		upload: (u: TestUser, file: Blob) => setLogo(u.userId, u.orgId, file),
		remove: (u: TestUser) => removeLogo(u.userId, u.orgId),
		url: async (u: TestUser) =>
			(
				await asSystem((trx) =>
					trx.selectFrom('organizations').select('logo_url as url').where('id', '=', u.orgId).executeTakeFirstOrThrow(),
				)
			).url,
		folder: (u: TestUser) => path.join(dataDir, 'storage', 'logos', u.orgId),
		name: 'logo',
	},
	avatar: {
		upload: (u: TestUser, file: Blob) => setAvatar(u.userId, file),
		remove: (u: TestUser) => removeAvatar(u.userId),
		url: async (u: TestUser) =>
			(
				await asSystem((trx) =>
					trx.selectFrom('profiles').select('avatar_url as url').where('user_id', '=', u.userId).executeTakeFirstOrThrow(),
				)
			).url,
		folder: (u: TestUser) => path.join(dataDir, 'storage', 'avatars', u.userId),
		name: 'avatar',
	},
} as const

/** The stored file a picture URL names, and whether its bytes are the version the URL carries. */
function storedFileOf(url: string, folder: string) {
	const { pathname, searchParams } = new URL(url, 'http://local')
	const bytes = readFileSync(path.join(folder, path.basename(pathname)))
	return {
		file: path.basename(pathname),
		matchesVersion: createHash('sha256').update(bytes).digest('base64url').slice(0, 12) === searchParams.get('v'),
	}
}

describe('picture uploads', () => {
	test('the logo is rate-limited like the avatar: one budget of 30 an hour for both, and a refused upload changes nothing', async () => {
		const u = await createUser('Busy Uploader')
		const file = await picture('png', '#101010', 8, 8)
		const answers = await Promise.all(
			Array.from({ length: PICTURE_UPLOADS.limit }, (_, i) => (i % 2 ? targets.avatar : targets.logo).upload(u, file)),
		)
		expect(answers.every((a) => a.ok)).toBe(true)
		const [logo, avatar] = [await targets.logo.url(u), await targets.avatar.url(u)]
		const another = await picture('png', '#ff0000', 9, 9)
		expect(await targets.logo.upload(u, another)).toEqual({ ok: false, code: 'too_many_uploads' })
		expect(await targets.avatar.upload(u, another)).toEqual({ ok: false, code: 'too_many_uploads' })
		expect([await targets.logo.url(u), await targets.avatar.url(u)]).toEqual([logo, avatar])
		// Another user has a budget of their own.
		const other = await createUser('Other Uploader')
		expect(await targets.logo.upload(other, another)).toMatchObject({ ok: true })
	})

	for (const [kind, target] of Object.entries(targets)) {
		test(`${kind}: a failed storage write leaves the previous picture in place, shown and stored`, async () => {
			const u = await createUser(`Failing ${kind}`)
			const first = await target.upload(u, await picture('png'))
			if (!first.ok) throw new Error(first.code)
			const folder = target.folder(u)
			const before = readFileSync(path.join(folder, `${target.name}.png`))
			// The JPEG's place is taken by a folder with a file in it: the write fails.
			mkdirSync(path.join(folder, `${target.name}.jpg`, 'inside'), { recursive: true })
			writeFileSync(path.join(folder, `${target.name}.jpg`, 'inside', 'x'), 'x')
			await expect(target.upload(u, await picture('jpeg', '#ff8800'))).rejects.toThrow()
			expect(await target.url(u)).toBe(first.url)
			expect(Buffer.compare(readFileSync(path.join(folder, `${target.name}.png`)), before)).toBe(0)
			expect(readdirSync(folder).sort()).toEqual([`${target.name}.jpg`, `${target.name}.png`])
			// Once the disk takes it, the JPEG replaces the PNG, whose file goes.
			rmSync(path.join(folder, `${target.name}.jpg`), { recursive: true })
			const second = await target.upload(u, await picture('jpeg', '#ff8800'))
			if (!second.ok) throw new Error(second.code)
			expect(await target.url(u)).toBe(second.url)
			expect(readdirSync(folder)).toEqual([`${target.name}.jpg`])
		})

		test(`${kind}: uploads of both formats at once all succeed, and the picture shown is a stored file, the one it names`, async () => {
			const u = await createUser(`Racing ${kind}`)
			const files = await Promise.all(
				Array.from({ length: 8 }, (_, i) => picture(i % 2 ? 'jpeg' : 'png', `#${(i * 30).toString(16).padStart(2, '0')}4080`)),
			)
			const answers = await Promise.all(files.map((file) => target.upload(u, file)))
			expect(answers.map((a) => a.ok)).toEqual(files.map(() => true))
			const url = await target.url(u)
			expect(answers.some((a) => a.ok && a.url === url)).toBe(true)
			const stored = storedFileOf(url!, target.folder(u))
			expect(stored.matchesVersion).toBe(true)
			// The other format's file, which no row names, is gone.
			expect(readdirSync(target.folder(u))).toEqual([stored.file])
		})

		test(`${kind}: removing it points at no picture and removes the files`, async () => {
			const u = await createUser(`Removing ${kind}`)
			expect(await target.upload(u, await picture('jpeg'))).toMatchObject({ ok: true })
			await target.remove(u)
			expect(await target.url(u)).toBeNull()
			expect(existsSync(target.folder(u))).toBe(false)
		})
	}

	test('someone who is not an owner can neither store a logo nor remove one', async () => {
		const owner = await createUser('Logo Owner')
		const manager = await createUser('Logo Manager')
		await addMember(owner.orgId, manager.userId, 'manager')
		expect(await setLogo(manager.userId, owner.orgId, await picture('png'))).toEqual({ ok: false, code: 'not_found' })
		expect(existsSync(targets.logo.folder(owner))).toBe(false)
		const set = await setLogo(owner.userId, owner.orgId, await picture('png'))
		if (!set.ok) throw new Error(set.code)
		expect(await removeLogo(manager.userId, owner.orgId)).toBe(false)
		expect(await targets.logo.url(owner)).toBe(set.url)
		expect(readdirSync(targets.logo.folder(owner))).toEqual(['logo.png'])
	})
})
