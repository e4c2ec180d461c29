/**
 * The forms of Reminders & Messaging (app/lib/schemas/messaging.ts): the reminder days as typed
 * ("1, 7, 14"), refused with the message the field shows; a form posted without a field is refused
 * rather than read as "no reminders"; a template's line breaks kept as LF whatever the browser sent.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { reminderSettingsSchema, templateSchema } from '#app/lib/schemas/messaging.ts'

function settings(fields: Record<string, string>) {
	const form = new FormData()
	for (const [name, value] of Object.entries(fields)) form.append(name, value)
	const submission = parseWithZod(form, { schema: reminderSettingsSchema, disableAutoCoercion: true })
	return submission.status === 'success' ? { value: submission.value } : { errors: submission.error }
}

describe('invoice reminder settings', () => {
	test('days are whole days, in any order and separators, saved in order; empty is none', () => {
		expect(settings({ invoiceReminders: 'on', daysBefore: '3', daysAfter: '14, 1;7' })).toEqual({
			value: { invoiceReminders: true, daysBefore: [3], daysAfter: [1, 7, 14] },
		})
		expect(settings({ daysBefore: '', daysAfter: ' ' })).toEqual({ value: { invoiceReminders: false, daysBefore: [], daysAfter: [] } })
	})

	test('a day out of range, twice, more than five, or not a number is refused under its field', () => {
		expect(settings({ daysBefore: '0', daysAfter: '1' }).errors).toEqual({ daysBefore: ['daysBeforeInvalid'] })
		expect(settings({ daysBefore: '61', daysAfter: '121' }).errors).toEqual({
			daysBefore: ['daysBeforeInvalid'],
			daysAfter: ['daysAfterInvalid'],
		})
		expect(settings({ daysBefore: '', daysAfter: '1, 1' }).errors).toEqual({ daysAfter: ['daysDuplicate'] })
		expect(settings({ daysBefore: '', daysAfter: '1,2,3,4,5,6' }).errors).toEqual({ daysAfter: ['daysTooMany'] })
		expect(settings({ daysBefore: '2.5', daysAfter: 'one' }).errors).toEqual({
			daysBefore: ['daysBeforeInvalid'],
			daysAfter: ['daysAfterInvalid'],
		})
	})

	test('a post without the day fields is refused, not read as no reminders', () => {
		expect(settings({ intent: 'save-settings' }).errors).toEqual({ daysBefore: ['required'], daysAfter: ['required'] })
	})
})

describe('templates', () => {
	test('a message posted with CR LF line breaks is kept with LF; a subject of two lines is refused', () => {
		const value = { intent: 'save-template', kind: 'invoice_before', language: 'en', subject: 'Hi', body: 'Hi {{client_name}},\r\n\r\nBye' }
		const parsed = templateSchema.safeParse(value)
		expect(parsed.success && parsed.data.body).toBe('Hi {{client_name}},\n\nBye')
		expect(templateSchema.safeParse({ ...value, subject: 'Hi\nthere' }).error?.issues.map((i) => i.message)).toEqual(['controlCharacters'])
	})
})
