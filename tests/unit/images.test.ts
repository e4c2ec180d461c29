import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { LOGO_BOX, MAX_IMAGE_BYTES, processImage, sniffImage } from '#app/.server/images.ts'

/** A photo with EXIF (camera, GPS position) as a camera writes it. */
async function photoWithExif(width: number, height: number, format: 'jpeg' | 'png') {
	const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } }).withExif({
		IFD0: { Make: 'TestCam', Model: 'Secret Model' },
		IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 46/1', GPSLongitudeRef: 'W', GPSLongitude: '79/1 58/1 56/1' },
	})
	return format === 'jpeg' ? base.jpeg().toBuffer() : base.png().toBuffer()
}

describe('processImage', () => {
	test('re-encodes a JPEG to a square of at most 256 px with no metadata left', async () => {
		const input = await photoWithExif(800, 600, 'jpeg')
		expect((await sharp(input).metadata()).exif).toBeDefined()
		const result = await processImage(new Uint8Array(input))
		if (!result.ok) throw new Error(result.code)
		const meta = await sharp(result.image.bytes).metadata()
		expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 256, 256])
		expect(meta.exif).toBeUndefined()
		expect(result.image.bytes.includes(Buffer.from('Secret Model'))).toBe(false)
		expect(result.image.ext).toBe('jpg')
	})

	test('keeps a small PNG small (square, never enlarged) and strips its EXIF', async () => {
		const result = await processImage(new Uint8Array(await photoWithExif(120, 90, 'png')))
		if (!result.ok) throw new Error(result.code)
		const meta = await sharp(result.image.bytes).metadata()
		expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['png', 90, 90, undefined])
	})

	test('a logo keeps its aspect ratio: a 300×120 wordmark stays 300×120, a wide one shrinks to fit the box, never cropped', async () => {
		const wordmark = await processImage(new Uint8Array(await photoWithExif(300, 120, 'png')), { shape: 'box' })
		if (!wordmark.ok) throw new Error(wordmark.code)
		const small = await sharp(wordmark.image.bytes).metadata()
		expect([small.format, small.width, small.height, small.exif]).toEqual(['png', 300, 120, undefined])
		const banner = await processImage(new Uint8Array(await photoWithExif(2000, 400, 'jpeg')), { shape: 'box' })
		if (!banner.ok) throw new Error(banner.code)
		const wide = await sharp(banner.image.bytes).metadata()
		expect([wide.format, wide.width, wide.height]).toEqual(['jpeg', LOGO_BOX.width, 102])
		const tall = await processImage(new Uint8Array(await photoWithExif(100, 1000, 'png')), { shape: 'box' })
		if (!tall.ok) throw new Error(tall.code)
		const narrow = await sharp(tall.image.bytes).metadata()
		expect([narrow.width, narrow.height]).toEqual([26, LOGO_BOX.height])
	})

	test('the version changes with the picture', async () => {
		const a = await processImage(new Uint8Array(await photoWithExif(50, 50, 'png')))
		const b = await processImage(
			new Uint8Array(
				await sharp({ create: { width: 50, height: 50, channels: 3, background: '#00ff00' } })
					.png()
					.toBuffer(),
			),
		)
		expect(a.ok && b.ok && a.image.version !== b.image.version).toBe(true)
	})

	test('refuses by content, not by name: text renamed .png, an SVG, a truncated PNG', async () => {
		const text = new File(['hello, I am not a picture'], 'photo.png', { type: 'image/png' })
		const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], 'logo.png', { type: 'image/png' })
		const png = await photoWithExif(64, 64, 'png')
		const truncated = new File([png.subarray(0, 40)], 'cut.png')
		for (const file of [text, svg, truncated]) expect(await processImage(file)).toEqual({ ok: false, code: 'invalid_type' })
	})

	test('refuses a file over 5 MB before reading it', async () => {
		const big = new Uint8Array(MAX_IMAGE_BYTES + 1)
		big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
		expect(await processImage(big)).toEqual({ ok: false, code: 'too_large' })
	})

	test('sniffs JPEG, PNG and GIF only', () => {
		expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg')
		expect(sniffImage(new TextEncoder().encode('GIF89a...'))).toBe('gif')
		expect(sniffImage(new TextEncoder().encode('<?xml version="1.0"?><svg'))).toBeNull()
		expect(sniffImage(new TextEncoder().encode('RIFF....WEBP'))).toBeNull()
	})
})
