import http from 'node:http'

export type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string }

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/**
 * One request through node:http, which sends any method, Host header and bytes as written, and
 * never follows a redirect. A hang is a failure: each request has a 10 s timeout. A server that
 * answers before it has read the whole body (a 413) may close the socket while the body is
 * still being written: the answer it sent is returned.
 */
export function raw(baseURL: string, method: string, path: string, options: { headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean } = {}) {
	const url = new URL(path, baseURL)
	const length = options.body === undefined || options.chunked ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }
	return new Promise<Raw>((resolve, reject) => {
		let answered: Raw | null = null
		const req = http.request(
			{ host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers: { ...length, ...options.headers }, timeout: 10_000 },
			(res) => {
				if (String(res.headers['content-type']).startsWith('text/event-stream')) {
					// A live stream never ends: its status and headers are the answer.
					answered = { status: res.statusCode ?? 0, headers: res.headers, body: '' }
					resolve(answered)
					res.destroy()
					return
				}
				const chunks: Buffer[] = []
				res.on('data', (c: Buffer) => chunks.push(c))
				res.on('end', () => {
					answered = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }
					resolve(answered)
				})
			},
		)
		req.on('timeout', () => req.destroy(new Error(`${method} ${path} took more than 10 s`)))
		req.on('error', (error) => (answered ? resolve(answered) : reject(error)))
		if (options.body !== undefined) {
			if (options.chunked) {
				// In 64 kB pieces, with no declared length: the server counts what arrives.
				const body = Buffer.from(options.body)
				for (let i = 0; i < body.length; i += 65_536) req.write(body.subarray(i, i + 65_536))
			} else req.write(options.body)
		}
		req.end()
	})
}

/** The `name=value` pairs of a response's Set-Cookie headers, merged into a Cookie header. */
export function mergeCookies(cookie: string, headers: http.IncomingHttpHeaders) {
	const jar = new Map(cookie.split('; ').filter(Boolean).map((pair) => [pair.split('=')[0]!, pair] as const))
	for (const line of headers['set-cookie'] ?? []) {
		const pair = line.split(';')[0]!
		const name = pair.split('=')[0]!
		if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name)
		else jar.set(name, pair)
	}
	return [...jar.values()].join('; ')
}
