import { z } from 'zod'

/**
 * The webhook forms (docs/product.md, Webhooks), shared by the browser (conform) and the action:
 * an endpoint's address (http or https, without credentials), an optional description, and the
 * events it wants (at least one). Messages are keys under webhooks:errors; the limits are the
 * database's checks (supabase/migrations/20261209300000_webhooks.sql).
 */
export const WEBHOOK_EVENTS = [
	'payment.received',
	'booking.created',
	'booking.confirmed',
	'booking.cancelled',
	'invoice.sent',
	'invoice.paid',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** Endpoints per organization at most (the database's `endpoint_limit`). */
export const MAX_ENDPOINTS = 10

function isWebhookUrl(value: string) {
	try {
		const url = new URL(value)
		return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && url.hostname !== ''
	} catch {
		return false
	}
}

export const createEndpointSchema = z.object({
	intent: z.literal('create'),
	url: z
		.string({ error: 'urlRequired' })
		.trim()
		.min(1, 'urlRequired')
		.max(2000, 'urlInvalid')
		.refine((value) => isWebhookUrl(value), 'urlInvalid'),
	description: z
		.string()
		.trim()
		.max(200, 'descriptionTooLong')
		.optional()
		.transform((value) => value || null),
	// One value per checked event; conform gives a string for one, an array for several.
	events: z
		.union([z.string(), z.array(z.string())], { error: 'eventsRequired' })
		.transform((value) => (Array.isArray(value) ? value : [value]))
		.pipe(z.array(z.enum(WEBHOOK_EVENTS, { error: 'eventsRequired' })).min(1, 'eventsRequired'))
		.transform((value) => [...new Set(value)]),
})
export type CreateEndpointValues = z.infer<typeof createEndpointSchema>
