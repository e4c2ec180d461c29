import { z } from 'zod'
import { supportedLanguages } from '#app/lib/i18n.ts'
import { CONTROL_CHARACTERS, CONTROL_CHARACTERS_IN_TEXT, MULTI_LINE, SINGLE_LINE } from '#app/lib/schemas/fields.ts'

/**
 * The message templates and reminder settings of Reminders & Messaging (docs/product.md,
 * Reminders & Messaging), shared by the browser (conform) and the actions. Messages are keys
 * under messaging:errors; a placeholder's error carries its name after a `|`
 * ("unknownPlaceholder|{{total}}"), so the message can name it. Limits and placeholders are the
 * database's checks (supabase/migrations/20261207300000_messaging.sql).
 */

/** The kinds of message an organization may write: invoice reminders before and after the due date, the appointment reminder. */
export const MESSAGE_KINDS = ['invoice_before', 'invoice_after', 'appointment_reminder'] as const
export type MessageKind = (typeof MESSAGE_KINDS)[number]

const INVOICE_PLACEHOLDERS = [
	'client_name',
	'invoice_number',
	'amount',
	'balance',
	'due_date',
	'pay_link',
	'memo_code',
	'organization_name',
] as const
const APPOINTMENT_PLACEHOLDERS = ['client_name', 'service', 'start_time', 'manage_link', 'organization_name'] as const

/** What each kind of message may name, in the order the screen lists them. */
export const PLACEHOLDERS: Record<MessageKind, readonly Placeholder[]> = {
	invoice_before: INVOICE_PLACEHOLDERS,
	invoice_after: INVOICE_PLACEHOLDERS,
	appointment_reminder: APPOINTMENT_PLACEHOLDERS,
}
export type Placeholder = (typeof INVOICE_PLACEHOLDERS)[number] | (typeof APPOINTMENT_PLACEHOLDERS)[number]

/** The placeholders whose value is an address: a mail's HTML makes them links. */
export const LINK_PLACEHOLDERS: readonly Placeholder[] = ['pay_link', 'manage_link']

export const SUBJECT_MAX = 200
export const BODY_MAX = 5000

/** A placeholder as written: `{{name}}`, spaces allowed inside the braces. */
const PLACEHOLDER = /^\{\{\s*([a-z_]+)\s*\}\}/

export type TemplatePart = { text: string } | { placeholder: Placeholder }

/**
 * A template's text cut into plain text and placeholders; or the first fault: a `{{` that opens
 * no placeholder of the kind (unknown: its name; malformed: what follows it, shortened). The one
 * reading of the syntax, for the check and for the renderer: nothing else is ever interpreted.
 */
export function parseTemplate(
	text: string,
	kind: MessageKind,
): { ok: true; parts: TemplatePart[] } | { ok: false; code: 'unknownPlaceholder' | 'malformedPlaceholder'; name: string } {
	const allowed = PLACEHOLDERS[kind]
	const parts: TemplatePart[] = []
	let rest = text
	for (;;) {
		const at = rest.indexOf('{{')
		if (at < 0) break
		if (at > 0) parts.push({ text: rest.slice(0, at) })
		const match = PLACEHOLDER.exec(rest.slice(at))
		if (!match) {
			// What was written, up to its closing braces (or the line's end), shortened.
			const fragment = /^\{\{[^}\n]{0,30}(\}\})?/.exec(rest.slice(at))![0]
			return { ok: false, code: 'malformedPlaceholder', name: fragment }
		}
		const name = match[1]!
		if (!(allowed as readonly string[]).includes(name)) return { ok: false, code: 'unknownPlaceholder', name: `{{${name}}}` }
		parts.push({ placeholder: name as Placeholder })
		rest = rest.slice(at + match[0].length)
	}
	if (rest) parts.push({ text: rest })
	return { ok: true, parts }
}

/** The message of a template's fault, as the form shows it under the field. */
export function placeholderIssue(text: string, kind: MessageKind): string | null {
	const parsed = parseTemplate(text, kind)
	return parsed.ok ? null : `${parsed.code}|${parsed.name}`
}

/** A field's message split into its key and the placeholder it names (if any). */
export function splitIssue(message: string): { key: string; name: string } {
	const at = message.indexOf('|')
	return at < 0 ? { key: message, name: '' } : { key: message.slice(0, at), name: message.slice(at + 1) }
}

/** The template form: which template (kind and language), its subject and body, and what to do (preview, save, reset). */
export const templateSchema = z
	.object({
		intent: z.enum(['preview', 'save-template', 'reset-template'], 'required'),
		kind: z.enum(MESSAGE_KINDS, 'required'),
		language: z.enum(supportedLanguages, 'required'),
		subject: z
			.string({ error: 'required' })
			.trim()
			.min(1, 'required')
			.max(SUBJECT_MAX, 'subjectTooLong')
			.regex(SINGLE_LINE, CONTROL_CHARACTERS),
		body: z
			.string({ error: 'required' })
			// A browser posts a text area's line breaks as CR LF: kept as LF, as typed with JavaScript on.
			.overwrite((text) => text.replace(/\r\n?/g, '\n'))
			.trim()
			.min(1, 'required')
			.max(BODY_MAX, 'bodyTooLong')
			.regex(MULTI_LINE, CONTROL_CHARACTERS_IN_TEXT),
	})
	.superRefine((value, ctx) => {
		for (const field of ['subject', 'body'] as const) {
			const issue = placeholderIssue(value[field], value.kind)
			if (issue) ctx.addIssue({ code: 'custom', path: [field], message: issue })
		}
	})
export type TemplateValues = z.infer<typeof templateSchema>

/** The invoice reminders' days, as the form lists them ("1, 7, 14"): whole days, each once, at most five. */
export const MAX_REMINDER_DAYS = 5
export const MAX_DAYS_BEFORE = 60
export const MAX_DAYS_AFTER = 120

/**
 * A list of days as typed. The form always sends the field (empty: none), so it is required: a
 * post without it is refused rather than read as "none" (parse with `disableAutoCoercion`, so an
 * empty field stays an empty text).
 */
const dayList = (max: number) =>
	z
		.string({ error: 'required' })
		.trim()
		.max(200, max === MAX_DAYS_BEFORE ? 'daysBeforeInvalid' : 'daysAfterInvalid')
		.transform((text, ctx) => {
			const items = text
				.split(/[\s,;]+/)
				.map((item) => item.trim())
				.filter(Boolean)
			const days: number[] = []
			for (const item of items) {
				const n = /^\d{1,3}$/.test(item) ? Number(item) : NaN
				if (!(n >= 1 && n <= max)) {
					ctx.addIssue({ code: 'custom', message: max === MAX_DAYS_BEFORE ? 'daysBeforeInvalid' : 'daysAfterInvalid' })
					return z.NEVER
				}
				if (days.includes(n)) {
					ctx.addIssue({ code: 'custom', message: 'daysDuplicate' })
					return z.NEVER
				}
				days.push(n)
			}
			if (days.length > MAX_REMINDER_DAYS) {
				ctx.addIssue({ code: 'custom', message: 'daysTooMany' })
				return z.NEVER
			}
			return days.sort((a, b) => a - b)
		})

/** The reminder settings form: on or off (a checkbox), the days before the due date and after it (parse with `disableAutoCoercion`). */
export const reminderSettingsSchema = z.object({
	invoiceReminders: z
		.string()
		.optional()
		.transform((v) => v === 'on'),
	daysBefore: dayList(MAX_DAYS_BEFORE),
	daysAfter: dayList(MAX_DAYS_AFTER),
})
export type MessagingSettingsValues = z.infer<typeof reminderSettingsSchema>
