import { requireBookingMember } from '#app/.server/booking.ts'
import { subscribeToBookings } from '#app/.server/booking-events.ts'
import type { Route } from './+types/events'

/** A comment line now and then keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000

/**
 * Server-sent events for the calendar (docs/product.md, Booking): a `change` event whenever the
 * organization's appointments change; the page then loads its data again. `no-transform`
 * keeps the compression middleware from buffering the stream.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { organization } = await requireBookingMember(context)
	const encoder = new TextEncoder()
	let cleanup = () => {}
	const stream = new ReadableStream<Uint8Array>({
		async start(controller) {
			const send = (text: string) => {
				try {
					controller.enqueue(encoder.encode(text))
				} catch {
					cleanup()
				}
			}
			const unsubscribe = await subscribeToBookings(organization.id, () => send('event: change\ndata: {}\n\n'))
			const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS)
			cleanup = () => {
				clearInterval(heartbeat)
				unsubscribe()
				try {
					controller.close()
				} catch {
					// already closed
				}
			}
			request.signal.addEventListener('abort', () => cleanup())
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
