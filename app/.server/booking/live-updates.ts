/**
 * Live refresh of the booking calendar (docs/product.md, Booking): who is told when an
 * organization's appointments change.
 *
 * On a PostgreSQL server, a trigger on booking_appointments NOTIFies channel `booking_changes`
 * with the organization's id (supabase/migrations/20261122005100_booking_notify.sql), so a
 * change made by any instance, or by SQL, reaches every instance through one LISTEN connection
 * per process. The embedded database has one connection that transactions take in turn, so it
 * cannot hold a LISTEN: there the app's own writes call `notifyBookingChange` once committed
 * (one process, so nothing else can write).
 *
 * An open stream is held to the rules of the request that opened it (docs/security.md, Live
 * refresh): `mayStillWatch` is asked again before each event and at least every minute, and the
 * stream ends once the session is gone (signed out, "sign out everywhere else", a password
 * change, expiry) or the user may no longer open the booking module of that organization
 * (removed, demoted below its visibility, the module deactivated). `claimStream` caps the
 * streams one user holds open on one instance.
 */
import { EventEmitter } from 'node:events'
import type { Role } from '#app/lib/roles.ts'
import { MODULES } from '#app/lib/modules.ts'
import { SESSION_IDLE } from '../auth/local.ts'
import { auth, readLocalToken } from '../auth/port.ts'
import { hashToken } from '../auth/tokens.ts'
import { asSystem, listenToChannel, sql } from '../db/index.ts'
import { usesEmbeddedDatabase } from '../env.ts'
import { mayUseModule } from '../marketplace/modules.ts'

const CHANNEL = 'booking_changes'
const RETRY_MS = 5_000

const emitter = new EventEmitter()
emitter.setMaxListeners(0)
let listening: Promise<void> | undefined

function startListening() {
	listening ??= listenToChannel(CHANNEL, (organizationId) => emitter.emit(organizationId))
		.then(() => undefined)
		.catch(() => {
			// The server is unreachable for now: try again on a later subscription.
			setTimeout(() => (listening = undefined), RETRY_MS)
		})
	return listening
}

/** Calls `onChange` whenever the organization's appointments change; returns the unsubscribe. */
export async function subscribeToBookings(organizationId: string, onChange: () => void) {
	if (!usesEmbeddedDatabase()) await startListening()
	emitter.on(organizationId, onChange)
	return () => void emitter.off(organizationId, onChange)
}

/** After a committed write on the embedded database (the server's trigger does it otherwise). */
export function notifyBookingChange(organizationId: string) {
	if (usesEmbeddedDatabase()) emitter.emit(organizationId)
}

/** The streams one user may hold open on one instance (a few tabs); the next is refused (429). */
export const MAX_STREAMS_PER_USER = 5
const openStreams = new Map<string, number>()

/**
 * A place for one more stream of the user on this instance, or null when they hold
 * MAX_STREAMS_PER_USER already. The returned release gives the place back (once, whatever calls it).
 */
export function claimStream(userId: string): (() => void) | null {
	const open = openStreams.get(userId) ?? 0
	if (open >= MAX_STREAMS_PER_USER) return null
	openStreams.set(userId, open + 1)
	let released = false
	return () => {
		if (released) return
		released = true
		const left = (openStreams.get(userId) ?? 1) - 1
		if (left > 0) openStreams.set(userId, left)
		else openStreams.delete(userId)
	}
}

/** How often an open stream checks its viewer again: BOOKING_STREAM_RECHECK_MS (for tests, 50 ms and up), at most and by default a minute. */
export function streamRecheckMs() {
	const ms = Number(process.env.BOOKING_STREAM_RECHECK_MS)
	return Number.isInteger(ms) && ms >= 50 && ms < 60_000 ? ms : 60_000
}

/** Never slide a session's idle expiry from here: an open tab alone must not keep a session alive. */
const NEVER_TOUCH = '1000 years'

export type StreamViewer = { request: Request; userId: string; organizationId: string }

/**
 * Whether the viewer of a stream may still watch it: the session of the request that opened it
 * is still valid, by the same rule as every request (`private.session_user`, or Supabase's
 * verified claims) without touching it, and belongs to the same user, who is still a member of
 * the organization whose booking module is active and visible to their role (`mayUseModule`).
 */
export async function mayStillWatch({ request, userId, organizationId }: StreamViewer): Promise<boolean> {
	const port = auth()
	if (port.name === 'local') {
		const token = await readLocalToken(request)
		if (!token) return false
		const { rows } = await asSystem((trx) =>
			sql<{
				user_id: string
			}>`select user_id from private.session_user(${hashToken(token)}, ${SESSION_IDLE}::interval, ${NEVER_TOUCH}::interval)`.execute(trx),
		)
		if (rows[0]?.user_id !== userId) return false
	} else if ((await port.getUser(request))?.userId !== userId) {
		return false
	}
	const { rows } = await asSystem((trx) =>
		sql<{ role: Role; default_visibility: string }>`
			select m.role, om.default_visibility
			from public.organization_members m
			join public.organization_modules om on om.organization_id = m.organization_id
			join public.modules md on md.id = om.module_id and md.feature_type = ${MODULES.booking.featureType}
			where m.organization_id = ${organizationId} and m.user_id = ${userId}`.execute(trx),
	)
	const row = rows[0]
	return row !== undefined && mayUseModule(row.default_visibility, row.role)
}

/** A comment line now and then keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000

/**
 * The calendar's event stream for a viewer the route has just authorized: `change` whenever the
 * organization's appointments change, a heartbeat comment every 25 s. Before each event and
 * every `streamRecheckMs()`, `mayStillWatch` is asked again and the stream ends on a no (or on
 * a database that does not answer: the browser then reconnects through the route's guards).
 * 429 when the user holds MAX_STREAMS_PER_USER already: a browser's EventSource does not retry
 * that. `no-transform` keeps the compression middleware from buffering the stream.
 */
export function bookingEventStream(viewer: StreamViewer): Response {
	const release = claimStream(viewer.userId)
	if (!release)
		return new Response('Too many open calendar streams', { status: 429, headers: { 'retry-after': '60', 'cache-control': 'no-store' } })
	const encoder = new TextEncoder()
	let closed = false
	let cleanup = () => {
		closed = true
		release()
	}
	const stream = new ReadableStream<Uint8Array>({
		async start(controller) {
			const send = (text: string) => {
				if (closed) return
				try {
					controller.enqueue(encoder.encode(text))
				} catch {
					cleanup()
				}
			}
			// One check at a time: the events of a burst wait for the same answer.
			let checking: Promise<boolean> | null = null
			const allowed = () =>
				(checking ??= mayStillWatch(viewer)
					.catch(() => false)
					.finally(() => (checking = null)))
			const recheck = (then?: () => void) =>
				void allowed().then((ok) => {
					if (!ok) cleanup()
					else then?.()
				})
			let unsubscribe = () => {}
			const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS)
			const timer = setInterval(() => recheck(), streamRecheckMs())
			cleanup = () => {
				if (closed) return
				closed = true
				clearInterval(heartbeat)
				clearInterval(timer)
				unsubscribe()
				release()
				try {
					controller.close()
				} catch {
					// already closed
				}
			}
			viewer.request.signal.addEventListener('abort', () => cleanup())
			if (viewer.request.signal.aborted) return cleanup()
			try {
				unsubscribe = await subscribeToBookings(viewer.organizationId, () => recheck(() => send('event: change\ndata: {}\n\n')))
			} catch {
				return cleanup()
			}
			if (closed) return unsubscribe()
			send('retry: 3000\n\n')
		},
		cancel() {
			cleanup()
		},
	})
	return new Response(stream, {
		headers: {
			'content-type': 'text/event-stream; charset=utf-8',
			'cache-control': 'no-cache, no-transform',
			'x-accel-buffering': 'no',
		},
	})
}
