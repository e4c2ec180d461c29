/**
 * Uploaded pictures (avatars and organization logos; docs/product.md, Settings). The server
 * trusts neither the file name nor the declared type: it reads the first bytes (JPEG, PNG or
 * GIF only, so an SVG or a renamed text file is refused), caps the size at 5 MB, then decodes
 * and re-encodes the picture with sharp: an avatar to a square of at most 256 px (cropped to its
 * centre), a logo fitted whole inside a LOGO_BOX, keeping its aspect ratio (a 300×120 wordmark
 * stays 300×120, never cropped to "tudio·"). Re-encoding drops every
 * piece of metadata (EXIF, GPS location, comments); the EXIF orientation is applied first.
 *
 * Decoding is the expensive part: a 300 KB PNG can declare 6300×6300 16-bit pixels (docs/security.md,
 * Pictures). So every picture the server decodes goes through `processImage`, which
 * - reads the header first (no pixel is decoded) and refuses a picture over MAX_IMAGE_PIXELS, or
 *   whose decoded samples would need more than MAX_DECODED_BYTES (16-bit pictures), and decodes
 *   only the first frame of an animation;
 * - decodes and shrinks in one pipeline, never holding the full bitmap when the format lets
 *   libvips avoid it (JPEG shrinks while decoding; PNG is read line by line);
 * - runs at most DECODE_SLOTS decodes at a time in this process; a request that would wait more
 *   than DECODE_WAIT_MS gets `busy` ("try again"), not a queue without end.
 * Uploads then go through `replacePicture` (rate limit, decode, store, record), the one path of
 * the avatar and the logo.
 */
import { createHash } from 'node:crypto'
import sharp, { type Metadata } from 'sharp'
import { asUser, type Tx } from './db/index.ts'
import { logError } from './log.ts'
import { allowEvent, LIMITS } from './rate-limit.ts'
import { storage, type Bucket } from './storage/index.ts'

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const IMAGE_SIDE = 256
/** The box a logo is fitted inside, its aspect ratio kept; never enlarged. */
export const LOGO_BOX = { width: 512, height: 256 } as const
/** How a picture is shaped: `square` (the avatar: cropped to a centred square) or `box` (the logo: whole, inside LOGO_BOX). */
export type ImageShape = 'square' | 'box'
/** The most pixels a picture (its first frame) may have: 4096×4096, far more than a 256 px avatar needs. */
export const MAX_IMAGE_PIXELS = 4096 * 4096
/** The most its decoded samples may take (width × height × channels × bytes per sample): an 8-bit RGBA 4096×4096. */
export const MAX_DECODED_BYTES = 64 * 1024 * 1024
/** Decodes at once in this process; the others wait their turn. */
export const DECODE_SLOTS = 2
/** How long a picture waits for a decode slot before the upload is refused as `busy`. */
export const DECODE_WAIT_MS = 5_000
/** A decode that takes longer than this fails (a slot is never held for ever). */
const DECODE_TIMEOUT_SECONDS = 15
/** Uploads per user, avatars and logos together: each costs a decode (LIMITS, app/.server/rate-limit.ts). */
export const PICTURE_UPLOADS = LIMITS['picture-upload']

// libvips' defaults suit a batch converter, not a server: one thread per picture (the slots above
// decide how many run), and no cache of decoded pictures (each upload is decoded once).
sharp.concurrency(1)
sharp.cache(false)

export type ImageKind = 'jpeg' | 'png' | 'gif'

/** The picture type the bytes start with, or null. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
	const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b)
	if (starts(0xff, 0xd8, 0xff)) return 'jpeg'
	if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png'
	if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'gif'
	return null
}

export type ProcessedImage = { bytes: Buffer; ext: 'jpg' | 'png'; contentType: string; version: string }
/**
 * Why a picture is refused: not a JPEG/PNG/GIF or not decodable, over 5 MB, over the pixel limit,
 * or every decode slot taken for longer than DECODE_WAIT_MS.
 */
export type ImageRefusal = 'invalid_type' | 'too_large' | 'too_many_pixels' | 'busy'

type Waiter = { resolve: (taken: boolean) => void; timer: NodeJS.Timeout }
const slots = { running: 0, waiting: [] as Waiter[] }

/** A decode slot: true at once when one is free, true when one frees within `waitMs`, else false. */
function takeDecodeSlot(waitMs: number): Promise<boolean> {
	if (slots.running < DECODE_SLOTS) {
		slots.running++
		return Promise.resolve(true)
	}
	return new Promise((resolve) => {
		const waiter: Waiter = {
			resolve,
			timer: setTimeout(() => {
				slots.waiting.splice(slots.waiting.indexOf(waiter), 1)
				resolve(false)
			}, waitMs),
		}
		slots.waiting.push(waiter)
	})
}

/** Hands the slot to the first picture waiting, or frees it. */
function releaseDecodeSlot() {
	const next = slots.waiting.shift()
	if (next) {
		clearTimeout(next.timer)
		next.resolve(true)
	} else {
		slots.running--
	}
}

/** For diagnostics and tests: the decodes running now and the pictures waiting for a slot. */
export function imageDecodes() {
	return { running: slots.running, waiting: slots.waiting.length }
}

/**
 * The picture, checked and re-encoded: a photo (JPEG) stays JPEG, PNG and GIF (its first frame)
 * become PNG, keeping transparency; `shape` says square (cropped) or box (whole, LOGO_BOX). Refusals (`ImageRefusal`) come before any pixel is decoded,
 * except `invalid_type` for a file whose pixels turn out broken. `waitMs`: how long to wait for
 * a decode slot (DECODE_WAIT_MS; tests shorten it).
 */
export async function processImage(
	file: Blob | Uint8Array,
	{ waitMs = DECODE_WAIT_MS, shape = 'square' }: { waitMs?: number; shape?: ImageShape } = {},
): Promise<{ ok: true; image: ProcessedImage } | { ok: false; code: ImageRefusal }> {
	const size = file instanceof Uint8Array ? file.byteLength : file.size
	if (size > MAX_IMAGE_BYTES) return { ok: false, code: 'too_large' }
	const input = file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer())
	const kind = sniffImage(input)
	if (!kind) return { ok: false, code: 'invalid_type' }
	// The header only: what decoding would cost, before paying it.
	let header: Metadata
	try {
		header = await sharp(input, { limitInputPixels: false }).metadata()
	} catch {
		return { ok: false, code: 'invalid_type' }
	}
	const width = header.width ?? 0
	const height = header.pageHeight ?? header.height ?? 0
	if (width < 1 || height < 1) return { ok: false, code: 'invalid_type' }
	const samples = width * height * (header.channels ?? 4) * (header.depth === 'ushort' || header.depth === 'short' ? 2 : 1)
	if (width * height > MAX_IMAGE_PIXELS || samples > MAX_DECODED_BYTES) return { ok: false, code: 'too_many_pixels' }
	if (!(await takeDecodeSlot(waitMs))) return { ok: false, code: 'busy' }
	try {
		// One pipeline: the first frame only, read in order, oriented and shrunk while decoding;
		// sharp's own pixel limit is a second guard behind the header check.
		const side = Math.min(width, height, IMAGE_SIDE)
		const pipeline = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true, pages: 1 })
			.timeout({ seconds: DECODE_TIMEOUT_SECONDS })
			.rotate()
		const square =
			shape === 'box'
				? pipeline.resize(LOGO_BOX.width, LOGO_BOX.height, { fit: 'inside', withoutEnlargement: true })
				: pipeline.resize(side, side, { fit: 'cover', position: 'centre' })
		const bytes =
			kind === 'jpeg' ? await square.jpeg({ quality: 85, mozjpeg: true }).toBuffer() : await square.png({ compressionLevel: 9 }).toBuffer()
		const ext = kind === 'jpeg' ? 'jpg' : 'png'
		const version = createHash('sha256').update(bytes).digest('base64url').slice(0, 12)
		return { ok: true, image: { bytes, ext, contentType: ext === 'jpg' ? 'image/jpeg' : 'image/png', version } }
	} catch {
		return { ok: false, code: 'invalid_type' }
	} finally {
		releaseDecodeSlot()
	}
}

/** Why an upload changed nothing: the picture's refusal, too many uploads, or a row the user may not change. */
export type PictureRefusal = ImageRefusal | 'too_many_uploads' | 'not_found'

/** The translation key (settings:avatar.{key}.title / .description) of a refusal the user can act on. */
export function pictureRefusalKey(code: Exclude<PictureRefusal, 'not_found'>) {
	const keys = {
		invalid_type: 'invalidType',
		too_large: 'tooLarge',
		too_many_pixels: 'tooManyPixels',
		busy: 'busy',
		too_many_uploads: 'tooManyUploads',
	} as const
	return keys[code]
}

/**
 * Where a picture goes: `{folder}/{name}.{jpg|png}` in `bucket`, and the row that points at it.
 * `lock` locks that row inside the transaction and reads the URL it holds, or gives null when
 * the user may not change it (RLS: their own profile, an organization they own); `record` sets
 * the URL.
 */
export type PictureTarget = {
	bucket: Bucket
	folder: string
	name: 'avatar' | 'logo'
	lock: (trx: Tx) => Promise<{ url: string | null } | null>
	record: (trx: Tx, url: string | null) => Promise<void>
}

/** Whether `url` (a stored file's address, from `storage().url`) names `{folder}/{file}`. */
function urlNames(url: string | null, folder: string, file: string) {
	if (!url) return false
	return new URL(url, 'http://local').pathname.endsWith(`/${folder}/${file}`)
}

/**
 * Removes the files of `target` that its row no longer points at: the other extension's picture,
 * or the whole folder once the row points at none. Under the row's lock, so that it never takes
 * the file of an upload that is being recorded at the same time.
 */
async function tidyPictures(userId: string, target: PictureTarget) {
	await asUser(userId, async (trx) => {
		const row = await target.lock(trx)
		if (!row) return
		const { url } = row
		if (!url) return storage().delete(target.bucket, target.folder)
		for (const ext of ['jpg', 'png']) {
			const file = `${target.name}.${ext}`
			if (!urlNames(url, target.folder, file)) await storage().delete(target.bucket, `${target.folder}/${file}`)
		}
	}).catch((error: unknown) => logError(error, { event: 'picture_tidy_failed', bucket: target.bucket, folder: target.folder }))
}

/**
 * The one upload path of the avatar and the logo: the user's upload budget (PICTURE_UPLOADS),
 * then the picture (processImage), then, with the row locked, the file is stored and only then
 * the row pointed at it. A refusal, or a storage or database error (thrown), changes nothing the
 * user sees: the row keeps its URL and its file. Two uploads at once are taken one after the
 * other, so the row always points at a file that exists.
 */
export async function replacePicture(
	userId: string,
	file: Blob,
	target: PictureTarget,
): Promise<{ ok: true; url: string } | { ok: false; code: PictureRefusal }> {
	if (!(await allowEvent('picture-upload', userId))) return { ok: false, code: 'too_many_uploads' }
	// The logo keeps its aspect ratio (fitted in LOGO_BOX); the avatar is a square.
	const result = await processImage(file, { shape: target.name === 'logo' ? 'box' : 'square' })
	if (!result.ok) return result
	const { image } = result
	const key = `${target.folder}/${target.name}.${image.ext}`
	const url = storage().url(target.bucket, key, image.version)
	const stored = await asUser(userId, async (trx) => {
		const row = await target.lock(trx)
		if (!row) return null
		await storage().put(target.bucket, key, image.bytes, image.contentType)
		await target.record(trx, url)
		return { previous: row.url }
	})
	if (!stored) return { ok: false, code: 'not_found' }
	// The same file overwritten needs no tidying; a picture of the other format leaves one behind.
	if (stored.previous && !urlNames(stored.previous, target.folder, `${target.name}.${image.ext}`)) await tidyPictures(userId, target)
	return { ok: true, url }
}

/** Points the row at no picture, then removes its files; false when the user may not change the row. */
export async function removePicture(userId: string, target: PictureTarget) {
	const removed = await asUser(userId, async (trx) => {
		if (!(await target.lock(trx))) return false
		await target.record(trx, null)
		return true
	})
	if (removed) await tidyPictures(userId, target)
	return removed
}
