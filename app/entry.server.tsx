import { randomBytes } from 'node:crypto'
import { Transform, type TransformCallback } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import type { RenderToPipeableStreamOptions } from 'react-dom/server'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { isRouteErrorResponse, RouterContextProvider, ServerRouter, type EntryContext } from 'react-router'
import { socketAddressContext } from './.server/context.ts'
import { getInstance } from './.server/i18n.ts'
import { logError } from './.server/log.ts'
import { securityHeaders } from './.server/security.ts'
import { NonceProvider } from './components/nonce.tsx'

export { ensureStarted, onDatabaseStopped, shutdown } from './.server/startup.ts'
export { log, logError } from './.server/log.ts'
export { publicOrigin } from './.server/security.ts'

export const streamTimeout = 5_000

/** Called by server.js for every request: the router context with the socket's address. */
export function getLoadContext(req: { socket?: { remoteAddress?: string } }) {
	const context = new RouterContextProvider()
	context.set(socketAddressContext, req.socket?.remoteAddress)
	return context
}

export default function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
	loadContext: RouterContextProvider,
) {
	const nonce = randomBytes(16).toString('base64')
	for (const [name, value] of Object.entries(securityHeaders(nonce))) responseHeaders.set(name, value)

	if (request.method.toUpperCase() === 'HEAD') {
		return new Response(null, { status: responseStatusCode, headers: responseHeaders })
	}

	return new Promise((resolve, reject) => {
		let shellRendered = false
		const userAgent = request.headers.get('user-agent')
		const readyOption: keyof RenderToPipeableStreamOptions =
			(userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
		let timeoutId: ReturnType<typeof setTimeout> | undefined
		const stopRender = () => abort()
		// Once the page is written (or failed), nothing may keep the render alive: a listener left
		// on the request's signal kept every page's whole render in memory for as long as the
		// request object lived (the embedded server's RSS after bench/load.ts: 840 → 1,200 MB).
		const settle = () => {
			clearTimeout(timeoutId)
			timeoutId = undefined
			request.signal.removeEventListener('abort', stopRender)
		}

		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
				<I18nextProvider i18n={getInstance(loadContext)}>
					<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
				</I18nextProvider>
			</NonceProvider>,
			{
				nonce,
				[readyOption]() {
					shellRendered = true
					const body = new ReactFlushes({
						final(callback) {
							settle()
							callback()
						},
					})
					const stream = createReadableStreamFromReadable(body)
					responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
					pipe(body)
					resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }))
				},
				onShellError(error: unknown) {
					settle()
					reject(error)
				},
				onError(error: unknown) {
					responseStatusCode = 500
					// Before the shell, React Router answers with the error page and handleError logs it.
					// A visitor who left mid-page (the request's signal aborted when the connection
					// closed) is not the server's error: React Router's data stream fails with it.
					if (shellRendered && !request.signal.aborted) logError(error, { event: 'render', path: new URL(request.url).pathname })
				},
			},
		)
		// Started once `abort` exists: a render that outlives the stream timeout is cut short, and
		// so is one whose visitor left (nothing more can reach them).
		timeoutId = setTimeout(stopRender, streamTimeout + 1000)
		request.signal.addEventListener('abort', stopRender, { once: true })
	})
}

/**
 * React's output, passed on in the pieces React flushes rather than in its 4 KB writes: a page's
 * shell reaches the socket in one write (and one gzip flush) instead of one per 4 KB, and each
 * Suspense boundary that resolves later still goes out as soon as React flushes it.
 * React calls `flush()` on its destination after every pass of writing; see docs/decisions/027.
 */
class ReactFlushes extends Transform {
	#pending: Buffer[] = []

	override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
		this.#pending.push(chunk)
		callback()
	}

	flush() {
		if (this.#pending.length === 0) return
		this.push(this.#pending.length === 1 ? this.#pending[0] : Buffer.concat(this.#pending))
		this.#pending = []
	}

	override _flush(callback: TransformCallback) {
		this.flush()
		callback()
	}
}

/** Errors of loaders, actions and rendering: logged once, never thrown out of the request. */
export function handleError(error: unknown, { request }: { request: Request }) {
	if (request.signal.aborted) return
	// A refusal React Router answers itself (a POST to a route with no action: 405) is the client's
	// mistake, not the server's: logged as an error it read "[object Object]" and buried real ones.
	if (isRouteErrorResponse(error) && error.status < 500) return
	logError(error, { method: request.method, path: new URL(request.url).pathname })
}
