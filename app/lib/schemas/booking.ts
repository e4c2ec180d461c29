import { z } from 'zod'
import { WEEKDAYS, type Weekday } from '#app/lib/availability.ts'
import { isValidDate } from '#app/lib/dates.ts'
import { CONTROL_CHARACTERS, CONTROL_CHARACTERS_IN_TEXT, MULTI_LINE, SINGLE_LINE } from '#app/lib/schemas/fields.ts'
import { ORGANIZATION_TIMEZONES } from '#app/lib/timezones.ts'

/**
 * The booking settings form (docs/product.md, Booking), shared by the browser (conform) and the
 * action. Messages are translation keys under booking:errors. The limits are the database's
 * checks (supabase/migrations/20261122000100_foundation.sql) plus upper bounds of our own, so a
 * typo like 99999 days gets a field error instead of a horizon nobody meant.
 */

export const SETTINGS_LIMITS = {
	minAdvanceHours: { min: 0, max: 8760 },
	maxAdvanceDays: { min: 1, max: 365 },
	bufferMinutes: { min: 0, max: 480 },
	cancellationHours: { min: 0, max: 8760 },
} as const

function wholeNumber({ min, max }: { min: number; max: number }) {
	return z
		.number({
			error: (issue) => (issue.input === undefined ? 'required' : 'notANumber'),
		})
		.int('notAWholeNumber')
		.min(min, min === 0 ? 'min0' : 'min1')
		.max(max, 'tooLarge')
}

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/
/** A closing time may be 24:00 (midnight), as in the database's check. */
const CLOSING = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/

/**
 * One weekday's hours. An open day needs a valid opening and a later closing time. A closed day's
 * times are not checked: the day's own ones are kept when they are valid, else it takes 09:00 to
 * 17:00, because the database checks start < end on every weekday, enabled or not.
 */
const dayHoursSchema = z
	.object({
		enabled: z.boolean().default(false),
		start: z.string().optional(),
		end: z.string().optional(),
	})
	.superRefine((day, ctx) => {
		if (!day.enabled) return
		if (!day.start) ctx.addIssue({ code: 'custom', path: ['start'], message: 'timeRequired' })
		else if (!CLOCK.test(day.start)) ctx.addIssue({ code: 'custom', path: ['start'], message: 'timeInvalid' })
		if (!day.end) ctx.addIssue({ code: 'custom', path: ['end'], message: 'timeRequired' })
		else if (!CLOSING.test(day.end)) ctx.addIssue({ code: 'custom', path: ['end'], message: 'timeInvalid' })
		else if (day.start && CLOCK.test(day.start) && day.start >= day.end)
			ctx.addIssue({ code: 'custom', path: ['end'], message: 'endBeforeStart' })
	})
	.transform(({ enabled, start, end }) =>
		start && end && CLOCK.test(start) && CLOSING.test(end) && start < end
			? { enabled, start, end }
			: { enabled, start: '09:00', end: '17:00' },
	)

const weeklyHoursSchema = z.object(
	Object.fromEntries(WEEKDAYS.map((day) => [day, dayHoursSchema])) as Record<Weekday, typeof dayHoursSchema>,
)

/**
 * How long an unpaid booking holds its slot (docs/product.md, Deposits and prepayment): an amount
 * in minutes or hours, from 15 minutes to 7 days (the database's check on deposit_hold_minutes),
 * and optionally until at most N hours before the start (0 to 168).
 */
export const HOLD_UNITS = ['minutes', 'hours'] as const
export const HOLD_LIMITS = { minMinutes: 15, maxMinutes: 10080, maxBeforeStartHours: 168 } as const

/** The hold in minutes, as stored. */
export function holdMinutes(amount: number, unit: (typeof HOLD_UNITS)[number]) {
	return unit === 'hours' ? amount * 60 : amount
}

export const bookingSettingsSchema = z
	.object({
		depositHold: wholeNumber({ min: 1, max: HOLD_LIMITS.maxMinutes }),
		depositHoldUnit: z.enum(HOLD_UNITS, { error: 'holdUnitInvalid' }).default('hours'),
		depositHoldBeforeStartHours: wholeNumber({ min: 0, max: HOLD_LIMITS.maxBeforeStartHours }).optional(),
		minAdvanceHours: wholeNumber(SETTINGS_LIMITS.minAdvanceHours),
		maxAdvanceDays: wholeNumber(SETTINGS_LIMITS.maxAdvanceDays),
		bufferMinutes: wholeNumber(SETTINGS_LIMITS.bufferMinutes),
		cancellationHours: wholeNumber(SETTINGS_LIMITS.cancellationHours),
		autoConfirm: z.boolean().default(false),
		allowGuestBooking: z.boolean().default(false),
		requirePhone: z.boolean().default(false),
		timezone: z.enum(ORGANIZATION_TIMEZONES, { error: 'timezoneInvalid' }),
		hours: weeklyHoursSchema,
	})
	.superRefine((value, ctx) => {
		const minutes = holdMinutes(value.depositHold, value.depositHoldUnit)
		if (minutes < HOLD_LIMITS.minMinutes || minutes > HOLD_LIMITS.maxMinutes)
			ctx.addIssue({ code: 'custom', path: ['depositHold'], message: 'holdOutOfRange' })
	})

export type BookingSettingsValues = z.infer<typeof bookingSettingsSchema>

/**
 * A provider's hours (docs/product.md, Booking): the organization's, or hours of their own that
 * narrow the organization's (a slot must be inside both). The weekly hours are only read, and
 * only checked, when the provider has hours of their own.
 */
export const providerHoursSchema = z.discriminatedUnion('mode', [
	z.object({ mode: z.literal('organization') }),
	z.object({ mode: z.literal('own'), hours: weeklyHoursSchema }),
])

export type ProviderHoursValues = z.infer<typeof providerHoursSchema>

/** The same test as the database's is_valid_email: text, an @, text, a dot and text, no spaces. */
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/

/**
 * A new appointment from the staff calendar (docs/product.md, Booking). Keys under booking:errors.
 * Notes may span lines; the other texts are one line without control characters (fields.ts). The
 * e-mail and the phone may be left empty (a walk-in); the name is required.
 */
export const newAppointmentSchema = z.object({
	service: z.uuid({ error: 'serviceRequired' }),
	provider: z.uuid({ error: 'providerRequired' }),
	start: z.iso.datetime({ offset: true, error: 'startRequired' }),
	clientName: z
		.string({ error: 'clientNameRequired' })
		.trim()
		.min(1, 'clientNameRequired')
		.max(120, 'clientNameTooLong')
		.regex(SINGLE_LINE, CONTROL_CHARACTERS),
	clientEmail: z
		.string()
		.trim()
		.max(254, 'clientEmailInvalid')
		.regex(EMAIL, 'clientEmailInvalid')
		.regex(SINGLE_LINE, 'clientEmailInvalid')
		.optional(),
	clientPhone: z.string().trim().max(40, 'clientPhoneTooLong').regex(SINGLE_LINE, CONTROL_CHARACTERS).optional(),
	notes: z.string().trim().max(2000, 'notesTooLong').regex(MULTI_LINE, CONTROL_CHARACTERS_IN_TEXT).optional(),
})
export type NewAppointmentValues = z.infer<typeof newAppointmentSchema>

/**
 * Moving an appointment from its page (docs/product.md, Booking › The appointment page): a local
 * date and start time in the organization's timezone, and a provider. Keys under booking:errors.
 */
export const moveAppointmentSchema = z.object({
	date: z.string({ error: 'dateRequired' }).refine(isValidDate, 'dateInvalid'),
	time: z.string({ error: 'timeRequired' }).regex(CLOCK, 'timeInvalid'),
	provider: z.uuid({ error: 'providerRequired' }),
})
export type MoveAppointmentValues = z.infer<typeof moveAppointmentSchema>

/** Whether a text is a wall-clock time "HH:MM" (a start of the move form). */
export function isClockTime(value: unknown): value is string {
	return typeof value === 'string' && CLOCK.test(value)
}

/** A date override from the settings tab: a day off, or special hours, for everyone or one provider. */
export const dateOverrideSchema = z
	.object({
		date: z.string({ error: 'dateRequired' }).refine(isValidDate, 'dateInvalid'),
		provider: z.uuid({ error: 'providerInvalid' }).optional(),
		closed: z.boolean().default(false),
		start: z.string().regex(CLOCK, 'timeInvalid').optional(),
		end: z.string().regex(CLOSING, 'timeInvalid').optional(),
		note: z.string().trim().max(200, 'noteTooLong').regex(SINGLE_LINE, CONTROL_CHARACTERS).optional(),
	})
	.superRefine((value, ctx) => {
		if (value.closed) return
		if (!value.start) ctx.addIssue({ code: 'custom', path: ['start'], message: 'timeRequired' })
		if (!value.end) ctx.addIssue({ code: 'custom', path: ['end'], message: 'timeRequired' })
		if (value.start && value.end && value.start >= value.end) ctx.addIssue({ code: 'custom', path: ['end'], message: 'endBeforeStart' })
	})
export type DateOverrideValues = z.infer<typeof dateOverrideSchema>
