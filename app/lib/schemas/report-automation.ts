import { z } from 'zod'
import { bothAmountWritings } from '#app/lib/schemas/fields.ts'
import { parseAmount } from '#app/lib/schemas/transactions.ts'

/**
 * The Automation form of Reports (docs/product.md, Reports › Automation), shared by the browser
 * (conform) and the action: the scheduled reports (weekly, monthly), the members they go to, and
 * the two alerts (received more than an amount this week; a client who has not paid for N weeks),
 * each off when left empty. Amounts are read as the page's language writes them. Messages are keys
 * under automation:errors; the limits are the database's checks
 * (supabase/migrations/20261208300000_report_automation.sql).
 */
export const MAX_RECIPIENTS = 100
export const MAX_DORMANT_WEEKS = 52
const MAX_THRESHOLD = 9_999_999_999.99

const checkbox = z
	.string()
	.optional()
	.transform((value) => value === 'on')

function automationSchemaFor(dotGroups: boolean) {
	return z.object({
		intent: z.literal('save'),
		weeklyReport: checkbox,
		monthlyReport: checkbox,
		// One value per checked member; conform gives a string for one, an array for several.
		recipients: z
			.union([z.string(), z.array(z.string())])
			.optional()
			.transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))
			.pipe(z.array(z.uuid({ error: 'recipientInvalid' })).max(MAX_RECIPIENTS, 'tooManyRecipients')),
		revenueThreshold: z
			.string()
			.trim()
			.max(40, 'thresholdInvalid')
			.optional()
			.transform((value, ctx) => {
				if (!value) return null
				const amount = parseAmount(value, { dotGroups })
				if (!amount.ok || Number(amount.value) <= 0 || Number(amount.value) > MAX_THRESHOLD) {
					ctx.addIssue({ code: 'custom', message: 'thresholdInvalid' })
					return z.NEVER
				}
				return amount.value
			}),
		dormantWeeks: z
			.string()
			.trim()
			.max(10, 'weeksInvalid')
			.optional()
			.transform((value, ctx) => {
				if (!value) return null
				const weeks = /^\d{1,2}$/.test(value) ? Number(value) : NaN
				if (!(weeks >= 1 && weeks <= MAX_DORMANT_WEEKS)) {
					ctx.addIssue({ code: 'custom', message: 'weeksInvalid' })
					return z.NEVER
				}
				return weeks
			}),
	})
}

/** The form's schema, plain (en) and with dot groups (es, pt-BR): `automationSchema.in(language)`. */
export const automationSchema = bothAmountWritings(automationSchemaFor)
export type AutomationValues = z.output<ReturnType<typeof automationSchemaFor>>
