import { z } from 'zod'

/**
 * The reminder times of the booking settings (docs/product.md, Booking reminders), shared by the
 * browser (conform) and the action: up to three, each some minutes before the start, within the
 * database's check (booking_settings.reminder_offsets_minutes: 15 minutes to a week, at most
 * three). Messages are translation keys under booking:reminders.errors.
 */

/** The times the form offers, in minutes before the start. */
export const REMINDER_CHOICES = [15, 30, 60, 120, 180, 360, 720, 1440, 2880, 4320, 10080] as const
export const REMINDER_FIELDS = ['reminder1', 'reminder2', 'reminder3'] as const
export const MIN_REMINDER_MINUTES = 15
export const MAX_REMINDER_MINUTES = 10080

const offset = z
	.number({ error: 'offsetInvalid' })
	.int('offsetInvalid')
	.min(MIN_REMINDER_MINUTES, 'offsetInvalid')
	.max(MAX_REMINDER_MINUTES, 'offsetInvalid')
	.optional()

/** The three fields as the form has them (the browser's constraints are read from this). */
export const reminderFieldsSchema = z.object({ reminder1: offset, reminder2: offset, reminder3: offset })

/** Three optional times; none twice. The value is the list to save, longest first (empty: no reminders). */
export const reminderSettingsSchema = reminderFieldsSchema
	.superRefine((value, ctx) => {
		const seen = new Set<number>()
		for (const field of REMINDER_FIELDS) {
			const minutes = value[field]
			if (minutes === undefined) continue
			if (seen.has(minutes)) ctx.addIssue({ code: 'custom', path: [field], message: 'duplicate' })
			seen.add(minutes)
		}
	})
	.transform((value) =>
		REMINDER_FIELDS.map((field) => value[field])
			.filter((minutes): minutes is number => minutes !== undefined)
			.sort((a, b) => b - a),
	)

export type ReminderOffsets = z.infer<typeof reminderSettingsSchema>

/** A time before the start in the largest whole unit: { unit: 'days', count: 1 } for 1,440 minutes. */
export function reminderUnit(minutes: number): { unit: 'days' | 'hours' | 'minutes'; count: number } {
	if (minutes % 1440 === 0) return { unit: 'days', count: minutes / 1440 }
	if (minutes % 60 === 0) return { unit: 'hours', count: minutes / 60 }
	return { unit: 'minutes', count: minutes }
}
