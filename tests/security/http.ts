import http from 'node:http'

export type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string }

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/**
 * One request through node:http, which sends any method, Host header and bytes as written, and
 * never follows a redirect. A hang is a failure: each request has a 10 s timeout. A server that
 * answers before it has read the whole body (a 413) may close the socket while the body is
 * still being written: the answer it sent is returned.
 */
export function raw(
	baseURL: string,
	method: string,
	path: string,
	options: { headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean } = {},
) {
	// A path is sent as written (`//evil.example` stays a path on this server, not another host).
	const literal = path.startsWith('/')
	const url = new URL(literal ? '/' : path, baseURL)
	const length = options.body === undefined || options.chunked ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }
	return new Promise<Raw>((resolve, reject) => {
		let answered: Raw | null = null
		let responded = false
		const req = http.request(
			{
				host: url.hostname,
				port: url.port,
				method,
				path: literal ? path : url.pathname + url.search,
				headers: { ...length, ...options.headers },
				timeout: 10_000,
			},
			(res) => {
				responded = true
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
		const body = options.body === undefined ? undefined : Buffer.from(options.body)
		if (!body || body.length <= 1024 * 1024) {
			if (body) req.write(body)
			req.end()
			return
		}
		// A large body goes in 64 kB pieces, as the socket takes them, and stops once the server
		// has answered (a 413 before the whole body was read): what a browser's upload would do.
		void (async () => {
			for (let i = 0; i < body.length && !responded && !req.destroyed; i += 65_536) {
				if (!req.write(body.subarray(i, i + 65_536))) {
					await new Promise<void>((r) => {
						const done = () => {
							req.off('drain', done).off('close', done)
							r()
						}
						req.on('drain', done).on('close', done)
					})
				}
			}
			if (!req.destroyed) req.end()
		})()
	})
}

/** The `name=value` pairs of a response's Set-Cookie headers, merged into a Cookie header. */
export function mergeCookies(cookie: string, headers: http.IncomingHttpHeaders) {
	const jar = new Map(
		cookie
			.split('; ')
			.filter(Boolean)
			.map((pair) => [pair.split('=')[0]!, pair] as const),
	)
	for (const line of headers['set-cookie'] ?? []) {
		const pair = line.split(';')[0]!
		const name = pair.split('=')[0]!
		if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name)
		else jar.set(name, pair)
	}
	return [...jar.values()].join('; ')
}
