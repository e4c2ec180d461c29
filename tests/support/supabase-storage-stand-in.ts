/**
 * A stand-in for Supabase Storage on localhost (tests cannot reach a real project): the object
 * upload, download, list and remove endpoints as @supabase/storage-js calls them, in memory.
 * It checks our adapter's side of the protocol, not Supabase (docs/deploy.md).
 */
import http from 'node:http'

export type StorageStandIn = { url: string; stop: () => Promise<void> }

export async function startSupabaseStorageStandIn(): Promise<StorageStandIn> {
	const objects = new Map<string, { bytes: Buffer; contentType: string }>()
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = []
		req.on('data', (c: Buffer) => chunks.push(c))
		req.on('end', () => {
			const body = Buffer.concat(chunks)
			const url = new URL(req.url ?? '/', 'http://stand-in')
			const path = decodeURIComponent(url.pathname.replace(/^\/storage\/v1/, ''))
			const json = (status: number, value: unknown) => {
				res.writeHead(status, { 'content-type': 'application/json' })
				res.end(JSON.stringify(value))
			}
			const notFound = () => json(400, { statusCode: '404', error: 'not_found', message: 'Object not found' })
			let m: RegExpExecArray | null
			if (req.method === 'POST' && (m = /^\/object\/list\/([^/]+)$/.exec(path))) {
				const { prefix = '' } = JSON.parse(body.toString() || '{}') as { prefix?: string }
				const start = `${m[1]}/${prefix ? `${prefix.replace(/\/$/, '')}/` : ''}`
				const entries = new Map<string, unknown>()
				for (const key of objects.keys()) {
					if (!key.startsWith(start)) continue
					const [first, ...rest] = key.slice(start.length).split('/')
					entries.set(first!, rest.length ? { name: first, id: null } : { name: first, id: key, metadata: {} })
				}
				return json(200, [...entries.values()])
			}
			if (req.method === 'DELETE' && (m = /^\/object\/([^/]+)$/.exec(path))) {
				const { prefixes = [] } = JSON.parse(body.toString() || '{}') as { prefixes?: string[] }
				const removed = prefixes.filter((p) => objects.delete(`${m![1]}/${p}`)).map((name) => ({ name, bucket_id: m![1] }))
				return json(200, removed)
			}
			if ((m = /^\/object\/([^/]+)\/(.+)$/.exec(path))) {
				const key = `${m[1]}/${m[2]}`
				if (req.method === 'POST' || req.method === 'PUT') {
					if (objects.has(key) && req.method === 'POST' && req.headers['x-upsert'] !== 'true') {
						return json(400, { statusCode: '409', error: 'Duplicate', message: 'The resource already exists' })
					}
					objects.set(key, { bytes: body, contentType: String(req.headers['content-type'] ?? 'application/octet-stream') })
					return json(200, { Key: key, Id: key })
				}
				if (req.method === 'GET') {
					const object = objects.get(key)
					if (!object) return notFound()
					res.writeHead(200, { 'content-type': object.contentType, 'content-length': String(object.bytes.length) })
					return res.end(object.bytes)
				}
			}
			json(404, { statusCode: '404', error: 'not_found', message: `no stand-in for ${req.method} ${path}` })
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const address = server.address()
	const port = typeof address === 'object' && address ? address.port : 0
	return {
		url: `http://127.0.0.1:${port}`,
		stop: async () => {
			server.closeAllConnections()
			await new Promise((resolve) => server.close(resolve))
		},
	}
}
