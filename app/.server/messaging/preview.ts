/**
 * The preview of a template on /app/messaging (docs/product.md, Reminders & Messaging): the text
 * being edited, rendered on the server by the mails' own renderer, with sample values written in
 * the template's language (an invoice of $250.00 with $100.00 still owed, due in a week; an
 * appointment tomorrow at 10:00 in the organization's zone) and the organization's name.
 */
import { TZDate } from '@date-fns/tz'
import { addDays, dateIn } from '#app/lib/dates.ts'
import { formatDate, formatInstantRange, formatMoney, zoneName } from '#app/lib/format.ts'
import type { MessageKind } from '#app/lib/schemas/messaging.ts'
import { tIn } from '../i18n.ts'
import { publicOrigin } from '../security.ts'
import { renderMessage, type MessageValues, type RenderedMessage, type Template } from './render.ts'

/** A page token's shape, for the sample links (they open nothing). */
const SAMPLE_TOKEN = '5f0c2a7e9b1d4c3e8a6f2b9d0e7c1a4b3f8e2d6c9a0b5e1f7d3c8a2b6e4f9c0d'

/** The sample values of a kind of message, in `language`. */
export function sampleValues(
	kind: MessageKind,
	language: string,
	organization: { name: string; slug: string; timezone: string },
	now = new Date(),
): MessageValues {
	const t = tIn(language, 'messaging')
	const origin = publicOrigin()
	if (kind === 'appointment_reminder') {
		// Tomorrow at 10:00 on the organization's clock.
		const [y, m, d] = addDays(dateIn(organization.timezone, now), 1).split('-').map(Number) as [number, number, number]
		const startsAt = new Date(new TZDate(y, m - 1, d, 10, 0, 0, organization.timezone).getTime())
		const endsAt = new Date(startsAt.getTime() + 60 * 60_000)
		return {
			client_name: t('sample.client_name'),
			service: t('sample.service'),
			start_time: `${formatInstantRange(startsAt, endsAt, organization.timezone, language)} ${zoneName(organization.timezone, language)}`,
			manage_link: `${origin}/book/${encodeURIComponent(organization.slug)}/booked/00000000-0000-4000-8000-000000000000?token=${SAMPLE_TOKEN}`,
			organization_name: organization.name,
		}
	}
	return {
		client_name: t('sample.client_name'),
		invoice_number: '1042',
		amount: formatMoney('250.00', language),
		balance: formatMoney('100.00', language),
		due_date: formatDate(addDays(dateIn(organization.timezone, now), 7), language),
		pay_link: `${origin}/i/${SAMPLE_TOKEN}`,
		memo_code: 'K7QM4P',
		organization_name: organization.name,
	}
}

/** The template as the client would read it, with sample values. */
export function previewTemplate(
	kind: MessageKind,
	language: string,
	template: Template,
	organization: { name: string; slug: string; timezone: string },
): RenderedMessage {
	return renderMessage(kind, template, sampleValues(kind, language, organization))
}
