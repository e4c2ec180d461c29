// The production server: static assets, the React Router request handler, one log line per
// request, the cross-site check for every non-GET request, and a clean exit on SIGTERM.
import { randomUUID } from 'node:crypto'
import { readdirSync } from 'node:fs'
import path from 'node:path'

// React and React Router load their production or development build by NODE_ENV, when they are
// first imported: it is set before anything imports them (a static import would run first, and
// `npm start` would serve with React's development build).
process.env.NODE_ENV ??= 'production'
const { default: compression } = await import('compression')
const { default: express } = await import('express')
const { createRequestHandler } = await import('@react-router/express')

const build = await import('./build/server/index.js')
const entry = build.entry.module

const PORT = Number(process.env.PORT ?? 3000)
const HOST = process.env.HOST ?? '0.0.0.0'
const PUBLIC_URL = process.env.PUBLIC_URL ? new URL(process.env.PUBLIC_URL) : null

// Logging is best effort. When the pipe the output goes to closes (whatever read it ended), every
// write fails with EPIPE; unhandled, that failure was an uncaught exception whose own log line
// failed again, without end: the server spun at full CPU, served nothing and ignored SIGTERM.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined)

// One failing request must never end the server: log it and keep serving. (Express answers 500
// for errors inside a request; these catch what escapes it, such as a timer's callback.)
process.on('uncaughtException', (error) => entry.logError(error, { event: 'uncaughtException' }))
process.on('unhandledRejection', (error) => entry.logError(error, { event: 'unhandledRejection' }))

// A server that cannot start (a bad environment, a database it cannot open) says why and exits
// with a failure, so that whatever supervises it notices.
const { demo, trustProxy, shutdownMs } = await entry.ensureStarted().catch((error) => {
	entry.logError(error, { event: 'startup' })
	process.exit(1)
})

const app = express()
app.disable('x-powered-by')
// The number of proxies in front (TRUST_PROXY): req.protocol believes only what they append.
app.set('trust proxy', trustProxy)

// Every form and link of the app is GET, HEAD or POST; any other method gets a 405 at once.
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST']
app.use((req, res, next) => {
	if (ALLOWED_METHODS.includes(req.method)) return next()
	res
		.status(405)
		.set({ Allow: ALLOWED_METHODS.join(', '), 'X-Content-Type-Options': 'nosniff' })
		.type('text/plain')
		.send('Method not allowed.')
})

// The answers under way, for a stop (see shutdown below).
const underWay = new Set()
let closing = false

app.use((req, res, next) => {
	underWay.add(res)
	res.on('close', () => {
		underWay.delete(res)
		// Stopping: the connection closes once its answer is out, rather than waiting as keep-alive.
		if (closing) setImmediate(() => server.closeIdleConnections())
	})
	if (closing) res.setHeader('Connection', 'close')
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
	if (['GET', 'HEAD'].includes(req.method)) return next()
	const expected = `${req.protocol}://${req.headers.host}`
	const origin = req.get('origin')
	const site = req.get('sec-fetch-site')
	if ((origin && origin !== expected) || site === 'cross-site') {
		res.status(403).set('X-Content-Type-Options', 'nosniff').type('text/plain').send('Cross-site request refused.')
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
// The other files of the browser build (the translations, the favicon) are known at start: only
// their paths go to express.static, so a page request costs no look-up on the disk.
const clientFiles = new Set(
	readdirSync('build/client', { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => `/${path.relative('build/client', path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
		.filter((file) => !file.startsWith('/assets/')),
)
const serveClientFile = express.static('build/client', { maxAge: '1h', setHeaders: staticHeaders })
app.use((req, res, next) => (clientFiles.has(req.path) ? serveClientFile(req, res, next) : next()))
app.all('*splat', createRequestHandler({ build, getLoadContext: (req) => entry.getLoadContext(req) }))

const server = app.listen(PORT, HOST, () => {
	console.log(`P2P Transaction Tracker is running at ${entry.publicOrigin()}`)
	if (!PUBLIC_URL) {
		console.warn(`PUBLIC_URL is not set: links in emails point to ${entry.publicOrigin()}. Set PUBLIC_URL to the address users open.`)
	}
	if (demo) console.log(`Demo sign-in: ${demo.email} / ${demo.password}`)
})

/**
 * A stop as a rolling deploy wants it: no new connections; the requests under way get their
 * answers (a save posted a moment before is not cut off); the calendars' event streams end at once
 * (their browsers reconnect, to another instance); then the scheduler's run, the queued mail and
 * the database. Requests still running after half of SHUTDOWN_SECONDS have their connections
 * closed, and whatever still waits at SHUTDOWN_SECONDS (a database that never answers) does not
 * keep the process: it exits with a failure.
 */
async function shutdown(reason, exitCode = 0) {
	if (closing) return
	closing = true
	console.log(`${reason}, closing`)
	setTimeout(() => {
		entry.logError(new Error(`the stop did not finish in ${shutdownMs / 1000} s`), { event: 'shutdown' })
		process.exit(1)
	}, shutdownMs).unref()
	const drained = new Promise((resolve) => server.close(resolve))
	for (const res of underWay) {
		if (String(res.getHeader('content-type')).startsWith('text/event-stream')) res.destroy()
		else if (!res.headersSent) res.setHeader('Connection', 'close')
	}
	server.closeIdleConnections()
	const cut = setTimeout(() => server.closeAllConnections(), shutdownMs / 2)
	await drained
	clearTimeout(cut)
	await entry.shutdown().catch((error) => entry.logError(error, { event: 'shutdown' }))
	process.exit(exitCode)
}
process.on('SIGTERM', () => void shutdown('SIGTERM received'))
process.on('SIGINT', () => void shutdown('SIGINT received'))
// The embedded database's thread stopped (it crashed, or ran out of memory): every request would
// fail from now on. Exit with a failure, so that whatever supervises the server starts it again
// (docs/deploy.md); PostgreSQL recovers the data directory on the next start.
entry.onDatabaseStopped((error) => {
	entry.logError(error, { event: 'embedded_database_stopped' })
	void shutdown('The embedded database stopped', 1)
})
