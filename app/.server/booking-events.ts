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
 */
import { EventEmitter } from 'node:events'
import { listenToChannel } from './db/index.ts'
import { usesEmbeddedDatabase } from './env.ts'

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
