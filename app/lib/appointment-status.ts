/**
 * The status changes staff make from the calendar (docs/product.md, Booking): the statuses each
 * may start from, and whether the appointment must have started (an appointment still ahead can
 * be confirmed or cancelled, not completed or marked a no-show). The server applies these rules;
 * the calendar offers only the changes they allow.
 */
export type AppointmentStatus = 'pending' | 'confirmed' | 'cancelled' | 'completed' | 'no_show'

export const STATUS_CHANGES = {
	confirm: { to: 'confirmed', from: ['pending'], onceStarted: false },
	complete: { to: 'completed', from: ['pending', 'confirmed'], onceStarted: true },
	'no-show': { to: 'no_show', from: ['pending', 'confirmed'], onceStarted: true },
	cancel: { to: 'cancelled', from: ['pending', 'confirmed'], onceStarted: false },
} as const satisfies Record<string, { to: AppointmentStatus; from: readonly AppointmentStatus[]; onceStarted: boolean }>

export type StatusChange = keyof typeof STATUS_CHANGES

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
