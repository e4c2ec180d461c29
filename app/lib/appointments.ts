/**
 * The appointment statuses and their rules (docs/product.md, Booking), in one place for every
 * TypeScript module: the statuses of the database's `public.appointment_status`, which of them
 * are active (they hold their slot), and the status changes staff make from the calendar.
 *
 * SQL keeps its own definition of "active" (the overlap constraint on `booking_appointments`
 * and the booking functions, supabase/migrations); tests/db/booking.test.ts books a slot over an
 * appointment of each status on both databases and checks that the two agree.
 */
export const APPOINTMENT_STATUSES = ['pending', 'confirmed', 'cancelled', 'completed', 'no_show'] as const
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number]

/**
 * The active statuses: an appointment in one of them occupies its slot (no other booking may
 * overlap it, and the free times leave it out), and its guest may still move or cancel it.
 */
export const ACTIVE_STATUSES = ['pending', 'confirmed'] as const satisfies readonly AppointmentStatus[]
export type ActiveStatus = (typeof ACTIVE_STATUSES)[number]

/** Whether an appointment in this status occupies its slot (`ACTIVE_STATUSES`). */
export function isActiveStatus(status: string | null | undefined): status is ActiveStatus {
	return (ACTIVE_STATUSES as readonly string[]).includes(status ?? '')
}

/** The statuses the calendar's week counts: every appointment not cancelled (as the analytics count them, in SQL). */
export const COUNTED_STATUSES = APPOINTMENT_STATUSES.filter((status) => status !== 'cancelled')

/**
 * The status changes staff make from the calendar: the statuses each may start from, and
 * whether the appointment must have started (an appointment still ahead can be confirmed or
 * cancelled, not completed or marked a no-show). The server applies these rules; the calendar
 * offers only the changes they allow.
 */
export const STATUS_CHANGES = {
	confirm: { to: 'confirmed', from: ['pending'], onceStarted: false },
	complete: { to: 'completed', from: ACTIVE_STATUSES, onceStarted: true },
	'no-show': { to: 'no_show', from: ACTIVE_STATUSES, onceStarted: true },
	cancel: { to: 'cancelled', from: ACTIVE_STATUSES, onceStarted: false },
} as const satisfies Record<string, { to: AppointmentStatus; from: readonly AppointmentStatus[]; onceStarted: boolean }>

export type StatusChange = keyof typeof STATUS_CHANGES

/** Whether a posted value names one of the calendar's status changes. */
export function isStatusChange(value: string): value is StatusChange {
	return Object.hasOwn(STATUS_CHANGES, value)
}

/** The changes an appointment in this status, started or not yet, allows, in the calendar's order. */
export function allowedChanges(status: AppointmentStatus, started: boolean): StatusChange[] {
	return (Object.keys(STATUS_CHANGES) as StatusChange[]).filter((change) => {
		const rule = STATUS_CHANGES[change]
		return (rule.from as readonly AppointmentStatus[]).includes(status) && (started || !rule.onceStarted)
	})
}
