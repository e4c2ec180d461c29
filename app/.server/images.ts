/**
 * Uploaded pictures (avatars and organization logos; docs/product.md, Settings). The server
 * trusts neither the file name nor the declared type: it reads the first bytes (JPEG, PNG or
 * GIF only, so an SVG or a renamed text file is refused), caps the size at 5 MB, then decodes
 * and re-encodes the picture with sharp to a square of at most 256 px. Re-encoding drops every
 * piece of metadata (EXIF, GPS location, comments); the EXIF orientation is applied first.
 */
import { createHash } from 'node:crypto'
import sharp from 'sharp'

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const IMAGE_SIDE = 256

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
export type ImageRefusal = 'invalid_type' | 'too_large'

/**
 * The picture, checked and re-encoded: a photo (JPEG) stays JPEG, PNG and GIF (its first frame)
 * become PNG, keeping transparency. Refusals are `invalid_type` (not a JPEG/PNG/GIF, or not
 * decodable) and `too_large` (over 5 MB).
 */
export async function processImage(file: Blob | Uint8Array): Promise<{ ok: true; image: ProcessedImage } | { ok: false; code: ImageRefusal }> {
	const size = file instanceof Uint8Array ? file.byteLength : file.size
	if (size > MAX_IMAGE_BYTES) return { ok: false, code: 'too_large' }
	const input = file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer())
	const kind = sniffImage(input)
	if (!kind) return { ok: false, code: 'invalid_type' }
	try {
		// 40 megapixels at most: a small file cannot expand into a huge bitmap.
		const oriented = sharp(input, { limitInputPixels: 40_000_000, animated: false }).rotate()
		const { data, info } = await oriented.raw().toBuffer({ resolveWithObject: true })
		const side = Math.min(info.width, info.height, IMAGE_SIDE)
		const square = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).resize(side, side, { fit: 'cover', position: 'centre' })
		const bytes = kind === 'jpeg' ? await square.jpeg({ quality: 85, mozjpeg: true }).toBuffer() : await square.png({ compressionLevel: 9 }).toBuffer()
		const ext = kind === 'jpeg' ? 'jpg' : 'png'
		const version = createHash('sha256').update(bytes).digest('base64url').slice(0, 12)
		return { ok: true, image: { bytes, ext, contentType: ext === 'jpg' ? 'image/jpeg' : 'image/png', version } }
	} catch {
		return { ok: false, code: 'invalid_type' }
	}
}
