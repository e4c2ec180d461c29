/**
 * What a picture costs the server to decode (app/.server/images.ts): a small file that declares
 * a huge bitmap is refused from its header, before any pixel is decoded, in every format; big
 * but allowed pictures are decoded two at a time, the others wait or are told to try again;
 * only the first frame of an animation is decoded.
 */
import { once } from 'node:events'
import { crc32, createDeflate } from 'node:zlib'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { DECODE_SLOTS, imageDecodes, MAX_IMAGE_PIXELS, processImage } from '#app/.server/images.ts'

const MB = 1024 * 1024

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer) {
	const length = Buffer.alloc(4)
	length.writeUInt32BE(data.length)
	const typed = Buffer.concat([Buffer.from(type, 'latin1'), data])
	const crc = Buffer.alloc(4)
	crc.writeUInt32BE(crc32(typed))
	return Buffer.concat([length, typed, crc])
}

/** zlib's stream of `length` zero bytes, fed in parts: the zeros are never all in memory. */
async function deflatedZeros(length: number) {
	const deflate = createDeflate({ level: 9 })
	const out: Buffer[] = []
	deflate.on('data', (part: Buffer) => out.push(part))
	const ended = once(deflate, 'end')
	const zeros = Buffer.alloc(4 * MB)
	for (let left = length; left > 0; left -= zeros.length) {
		if (!deflate.write(zeros.subarray(0, Math.min(zeros.length, left)))) await once(deflate, 'drain')
	}
	deflate.end()
	await ended
	return Buffer.concat(out)
}

/**
 * A valid PNG of `side`×`side` 16-bit RGB pixels, all black: its rows deflate to a few hundred
 * KB, and decoding it takes side² × 6 bytes (238 MB for 6300).
 */
async function hugeSixteenBitPng(side: number) {
	const header = Buffer.alloc(13)
	header.writeUInt32BE(side, 0)
	header.writeUInt32BE(side, 4)
	header.set([16, 2, 0, 0, 0], 8) // 16 bits per sample, RGB, deflate, adaptive filtering, not interlaced
	// Each row: its filter byte (0, none), then 6 bytes a pixel, all zero.
	const idat = await deflatedZeros(side * (side * 6 + 1))
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', idat),
		chunk('IEND', Buffer.alloc(0)),
	])
}

/** A real JPEG whose frame header is rewritten to declare `width`×`height`. */
async function jpegDeclaring(width: number, height: number) {
	const jpeg = Buffer.from(
		await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
			.jpeg()
			.toBuffer(),
	)
	const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]))
	jpeg.writeUInt16BE(height, sof + 5)
	jpeg.writeUInt16BE(width, sof + 7)
	return jpeg
}

/** A real GIF whose screen and frame are rewritten to declare `width`×`height`. */
async function gifDeclaring(width: number, height: number) {
	const gif = Buffer.from(
		await sharp({ create: { width: 16, height: 16, channels: 3, background: '#00ff00' } })
			.gif()
			.toBuffer(),
	)
	const flags = gif[10]!
	// After the 13-byte header and screen descriptor, the global colour table, then extensions up to the frame's descriptor.
	let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0)
	while (gif[at] === 0x21) {
		at += 2
		while (gif[at]) at += gif[at]! + 1
		at++
	}
	for (const offset of [6, at + 5]) {
		gif.writeUInt16LE(width, offset)
		gif.writeUInt16LE(height, offset + 2)
	}
	return gif
}

/** Runs `work` while sampling the decode slots and the process's memory every millisecond. */
async function watched<T>(work: () => Promise<T>) {
	const before = process.memoryUsage().rss
	const seen = { running: 0, waiting: 0, rss: before }
	const timer = setInterval(() => {
		const now = imageDecodes()
		seen.running = Math.max(seen.running, now.running)
		seen.waiting = Math.max(seen.waiting, now.waiting)
		seen.rss = Math.max(seen.rss, process.memoryUsage().rss)
	}, 1)
	const started = performance.now()
	try {
		const result = await work()
		return {
			result,
			ms: performance.now() - started,
			maxRunning: seen.running,
			maxWaiting: seen.waiting,
			rssGrowthMB: (seen.rss - before) / MB,
		}
	} finally {
		clearInterval(timer)
	}
}

describe('decoding pictures', () => {
	test('a 300 KB PNG declaring 6300×6300 16-bit pixels is refused at once, without the process growing', async () => {
		const png = await hugeSixteenBitPng(6300)
		expect(png.length).toBeLessThan(400 * 1024)
		// sharp reads it as what it declares: a valid picture, not a broken one.
		const meta = await sharp(png).metadata()
		expect([meta.width, meta.height, meta.depth]).toEqual([6300, 6300, 'ushort'])
		const { result, ms, rssGrowthMB } = await watched(() => Promise.all([1, 2, 3].map(() => processImage(new Uint8Array(png)))))
		expect(result).toEqual([1, 2, 3].map(() => ({ ok: false, code: 'too_many_pixels' })))
		expect(ms).toBeLessThan(500)
		expect(rssGrowthMB).toBeLessThan(30)
	})

	test('a JPEG and a GIF declaring more than 4096×4096 pixels are refused from their headers too', async () => {
		const jpeg = await jpegDeclaring(4097, 4096)
		expect((await sharp(jpeg).metadata()).width).toBe(4097)
		expect(await processImage(new Uint8Array(jpeg))).toEqual({ ok: false, code: 'too_many_pixels' })
		expect(await processImage(new Uint8Array(await jpegDeclaring(60_000, 60_000)))).toEqual({ ok: false, code: 'too_many_pixels' })
		const gif = await gifDeclaring(8200, 2100)
		expect(8200 * 2100).toBeGreaterThan(MAX_IMAGE_PIXELS)
		expect((await sharp(gif, { limitInputPixels: false }).metadata()).width).toBe(8200)
		expect(await processImage(new Uint8Array(gif))).toEqual({ ok: false, code: 'too_many_pixels' })
	})

	test('a 16-bit picture within the pixel limit but over the decoded-size budget is refused; the 8-bit one of that size is not', async () => {
		const pixels = (bits: 8 | 16) =>
			sharp({ create: { width: 3000, height: 3000, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } })
				.toColourspace(bits === 16 ? 'rgb16' : 'srgb')
				.png({ compressionLevel: 1 })
				.toBuffer()
		expect(await processImage(new Uint8Array(await pixels(16)))).toEqual({ ok: false, code: 'too_many_pixels' })
		expect((await processImage(new Uint8Array(await pixels(8)))).ok).toBe(true)
	})

	test('six large pictures at once: every one is answered, never more than two decode together, memory stays bounded', async () => {
		const big = new Uint8Array(
			await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#3366cc' } })
				.png({ compressionLevel: 1 })
				.toBuffer(),
		)
		const { result, maxRunning, maxWaiting, rssGrowthMB } = await watched(() =>
			Promise.all(Array.from({ length: 6 }, () => processImage(big))),
		)
		for (const answer of result) {
			if (!answer.ok) throw new Error(answer.code)
			const meta = await sharp(answer.image.bytes).metadata()
			expect([meta.width, meta.height]).toEqual([256, 256])
		}
		expect(maxRunning).toBe(DECODE_SLOTS)
		expect(maxWaiting).toBeGreaterThanOrEqual(1)
		// Six bitmaps of 48 MB decoded at once would add well over 250 MB.
		expect(rssGrowthMB).toBeLessThan(150)
		expect(imageDecodes()).toEqual({ running: 0, waiting: 0 })
	})

	test('a picture that waits too long for a slot is refused as busy, and the slots come back after failures too', async () => {
		const big = new Uint8Array(
			await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#cc3366' } })
				.png({ compressionLevel: 1 })
				.toBuffer(),
		)
		const broken = (
			await sharp({ create: { width: 300, height: 300, channels: 3, background: '#ffffff' } })
				.png()
				.toBuffer()
		).subarray(0, 200)
		// Two decodes hold both slots; what comes meanwhile waits a millisecond at most.
		const holding = [processImage(big), processImage(big)]
		while (imageDecodes().running < DECODE_SLOTS) await new Promise((resolve) => setTimeout(resolve, 1))
		const late = await Promise.all([processImage(new Uint8Array(broken), { waitMs: 1 }), processImage(big, { waitMs: 1 })])
		expect(late).toEqual([
			{ ok: false, code: 'busy' },
			{ ok: false, code: 'busy' },
		])
		expect((await Promise.all(holding)).map((a) => a.ok)).toEqual([true, true])
		expect(imageDecodes()).toEqual({ running: 0, waiting: 0 })
		expect(await processImage(new Uint8Array(broken))).toEqual({ ok: false, code: 'invalid_type' })
		expect(imageDecodes()).toEqual({ running: 0, waiting: 0 })
		expect((await processImage(big)).ok).toBe(true)
	})

	test('an animated GIF: only its first frame is decoded and kept', async () => {
		const frame = (colour: string) =>
			sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
				.png()
				.toBuffer()
		const gif = await sharp([await frame('#ff0000'), await frame('#0000ff')], { join: { animated: true } })
			.gif()
			.toBuffer()
		expect((await sharp(gif).metadata()).pages).toBe(2)
		const result = await processImage(new Uint8Array(gif))
		if (!result.ok) throw new Error(result.code)
		const { data, info } = await sharp(result.image.bytes).raw().toBuffer({ resolveWithObject: true })
		expect([info.width, info.height]).toEqual([48, 48])
		expect([...data.subarray(0, 3)]).toEqual([255, 0, 0])
	})
})
