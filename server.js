// The production server: static assets, the React Router request handler, one log line per
// request, the cross-site check for every non-GET request, and a clean exit on SIGTERM.
import { randomUUID } from 'node:crypto'
import compression from 'compression'
import express from 'express'
import { createRequestHandler } from '@react-router/express'

const build = await import('./build/server/index.js')
const entry = build.entry.module

const PORT = Number(process.env.PORT ?? 3000)
const HOST = process.env.HOST ?? '0.0.0.0'
const PUBLIC_URL = process.env.PUBLIC_URL ? new URL(process.env.PUBLIC_URL) : null
const TRUST_PROXY = ['1', 'true'].includes(process.env.TRUST_PROXY ?? '')
process.env.NODE_ENV ??= 'production'

const { demo } = await entry.ensureStarted()

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', TRUST_PROXY)

app.use((req, res, next) => {
	const start = process.hrtime.bigint()
	const given = req.get('x-request-id')
	const id = given && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID()
	res.setHeader('X-Request-Id', id)
	res.on('finish', () => {
		const ms = Number(process.hrtime.bigint() - start) / 1e6
		entry.log({ id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 })
	})
	next()
})

// Behind a proxy the public URL decides the origin that requests are checked against.
if (PUBLIC_URL) {
	app.use((req, _res, next) => {
		req.headers.host = PUBLIC_URL.host
		Object.defineProperty(req, 'protocol', { value: PUBLIC_URL.protocol.replace(':', '') })
		next()
	})
}

// A non-GET request from another site changes nothing (resource routes included).
app.use((req, res, next) => {
	if (['GET', 'HEAD', 'OPTIONS'].includes(req.method)) return next()
	const expected = `${req.protocol}://${req.headers.host}`
	const origin = req.get('origin')
	const site = req.get('sec-fetch-site')
	if ((origin && origin !== expected) || site === 'cross-site') {
		res.status(403).type('text/plain').send('Cross-site request refused.')
		return
	}
	next()
})

const staticHeaders = (res) => {
	res.setHeader('X-Content-Type-Options', 'nosniff')
	res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
}
app.use(compression())
app.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', setHeaders: staticHeaders }))
app.use(express.static('build/client', { maxAge: '1h', setHeaders: staticHeaders }))
app.all(
	'*splat',
	createRequestHandler({ build, getLoadContext: (req) => entry.getLoadContext(req) }),
)

const server = app.listen(PORT, HOST, () => {
	const url = PUBLIC_URL?.origin ?? `http://${HOST === '0.0.0.0' ? 'localhost' : HOST}:${PORT}`
	console.log(`P2P Transaction Tracker is running at ${url}`)
	if (demo) console.log(`Demo sign-in: ${demo.email} / ${demo.password}`)
})

let closing = false
async function shutdown(signal) {
	if (closing) return
	closing = true
	console.log(`${signal} received, closing`)
	server.close()
	server.closeAllConnections?.()
	await entry.shutdown()
	process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
