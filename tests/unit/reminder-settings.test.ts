/**
 * The reminder times form (docs/product.md, Booking reminders): up to three times before the start,
 * each between 15 minutes and a week (the database's check), none twice; what is saved is the
 * list, longest first. A time is written in its largest whole unit.
 */
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { reminderFieldsSchema, reminderSettingsSchema, reminderUnit } from '#app/lib/schemas/reminders.ts'

function submit(fields: Record<string, string>) {
	const form = new FormData()
	for (const [name, value] of Object.entries(fields)) form.append(name, value)
	return parseWithZod(form, { schema: reminderSettingsSchema })
}

describe('the reminder times', () => {
	it('saves the chosen times longest first, and none as an empty list', () => {
		expect(submit({ reminder1: '60', reminder2: '', reminder3: '1440' })).toMatchObject({ status: 'success', value: [1440, 60] })
		expect(submit({ reminder1: '', reminder2: '', reminder3: '' })).toMatchObject({ status: 'success', value: [] })
		expect(submit({})).toMatchObject({ status: 'success', value: [] })
	})

	it('refuses a time twice, one out of the database’s range, and one that is not a whole number, under its field', () => {
		expect(submit({ reminder1: '60', reminder2: '60' }).reply().error).toEqual({ reminder2: ['duplicate'] })
		expect(submit({ reminder1: '10' }).reply().error).toEqual({ reminder1: ['offsetInvalid'] })
		expect(submit({ reminder2: '10081' }).reply().error).toEqual({ reminder2: ['offsetInvalid'] })
		expect(submit({ reminder3: '90.5' }).reply().error).toEqual({ reminder3: ['offsetInvalid'] })
		expect(submit({ reminder3: 'soon' }).reply().error).toEqual({ reminder3: ['offsetInvalid'] })
	})

	it('names a time in its largest whole unit', () => {
		expect(reminderUnit(1440)).toEqual({ unit: 'days', count: 1 })
		expect(reminderUnit(10080)).toEqual({ unit: 'days', count: 7 })
		expect(reminderUnit(120)).toEqual({ unit: 'hours', count: 2 })
		expect(reminderUnit(90)).toEqual({ unit: 'minutes', count: 90 })
	})
})

describe('the form’s constraints', () => {
	it('are read from the fields, so the page renders (a transformed schema has none)', () => {
		expect(getZodConstraint(reminderFieldsSchema)).toEqual({
			reminder1: { required: false },
			reminder2: { required: false },
			reminder3: { required: false },
		})
	})
})
