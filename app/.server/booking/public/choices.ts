/**
 * What a visitor has chosen so far, and where it travels (docs/decisions/013-public-wizard.md):
 * the choices in the query string (service, mode, provider, date, start, tz, reschedule), the
 * steps' addresses built from them, and the short-lived signed cookies that carry the contact
 * details, a refused details form and the booking just made.
 */
import type { SubmissionResult } from '@conform-to/react'
import { createCookie } from 'react-router'
import { isTimeZone } from '#app/lib/dates.ts'
import { contactSchema, type ContactValues } from '#app/lib/schemas/book.ts'
import { isUuid } from '#app/lib/uuid.ts'
import { env } from '../../env.ts'
import { secureCookies } from '../../security.ts'
import { getManagedBooking, MANAGE_TOKEN } from './bookings.ts'

/** The wizard's steps, in order. */
export const STEPS = ['service', 'slot', 'details', 'confirm'] as const
export type Step = (typeof STEPS)[number]

export type Mode = 'provider' | 'time'
export type Choices = {
	service?: string
	mode: Mode
	provider?: string
	date?: string
	start?: string
	tz?: string
	more?: number
	reschedule?: string
}

/** The choices an address carries, each kept only when well formed (anything else is left out). */
export function readChoices(url: URL): Choices {
	const p = url.searchParams
	const text = (key: string) => {
		const v = p.get(key)
		return v && v.length <= 100 ? v : undefined
	}
	const service = text('service')
	const provider = text('provider')
	const start = text('start')
	const tz = text('tz')
	const date = text('date')
	const more = Number(p.get('more'))
	const reschedule = text('reschedule')
	return {
		service: isUuid(service) ? service : undefined,
		mode: p.get('mode') === 'time' ? 'time' : 'provider',
		provider: isUuid(provider) ? provider : undefined,
		date: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined,
		start: start && !Number.isNaN(Date.parse(start)) ? new Date(start).toISOString() : undefined,
		tz: tz && isTimeZone(tz) ? tz : undefined,
		more: Number.isInteger(more) && more > 0 && more <= 50 ? more : undefined,
		reschedule: reschedule && MANAGE_TOKEN.test(reschedule) ? reschedule : undefined,
	}
}

/** The query string of a set of choices (empty values left out), with a leading "?" when not empty. */
export function choiceQuery(choices: Partial<Choices>): string {
	const p = new URLSearchParams()
	for (const key of ['service', 'mode', 'provider', 'date', 'start', 'tz', 'more', 'reschedule'] as const) {
		const value = choices[key]
		if (value === undefined || value === null || value === '' || (key === 'mode' && value === 'provider')) continue
		p.set(key, String(value))
	}
	const s = p.toString()
	return s ? `?${s}` : ''
}

/** The address of a step with a set of choices. */
export function stepUrl(slug: string, step: Step, choices: Partial<Choices>) {
	return `/book/${encodeURIComponent(slug)}/${step}${choiceQuery(choices)}`
}

// ---------------------------------------------------------------------------------------------
// Contact details cookie
// ---------------------------------------------------------------------------------------------

/** Browsers keep a cookie up to about 4 KB (its name, value and attributes). */
const MAX_FORM_COOKIE = 3800

function contactCookie() {
	return createCookie('p2p_book', {
		path: '/book',
		sameSite: 'lax',
		httpOnly: true,
		maxAge: 60 * 60,
		secrets: [env().SESSION_SECRET],
		secure: secureCookies(),
	})
}

/** The contact details this browser gave for this organization's booking, when still valid; else null. */
export async function readContact(request: Request, slug: string): Promise<ContactValues | null> {
	const value: unknown = await contactCookie().parse(request.headers.get('cookie'))
	if (!value || typeof value !== 'object' || (value as { slug?: unknown }).slug !== slug) return null
	const parsed = contactSchema.safeParse((value as { contact?: unknown }).contact)
	return parsed.success ? parsed.data : null
}

/**
 * The details carried to the confirm step, or null when they do not fit a cookie: notes within
 * their 2,000 characters can take up to four bytes a character (emoji), and a browser drops a
 * cookie over about 4 KB, which would leave the previous details in place.
 */
export async function contactHeaders(slug: string, contact: ContactValues) {
	const cookie = await contactCookie().serialize({ slug, contact })
	return cookie.length > MAX_FORM_COOKIE ? null : new Headers({ 'set-cookie': cookie })
}

/** A refused details form between its post and the step's address (`refusedFormHeaders`). */
function refusedFormCookie() {
	return createCookie('p2p_book_form', {
		path: '/book',
		sameSite: 'lax',
		httpOnly: true,
		maxAge: 5 * 60,
		secrets: [env().SESSION_SECRET],
		secure: secureCookies(),
	})
}

/**
 * The details step answers a refused form with a redirect to its own address, the errors and
 * what was typed in a signed cookie, so that without JavaScript Back from the next step never
 * asks to post the form again. Null when they do not fit a cookie: the caller answers in place.
 */
export async function refusedFormHeaders(slug: string, result: SubmissionResult<string[]>) {
	const cookie = await refusedFormCookie().serialize({ slug, result })
	// A refused form with notes too long for a cookie is answered in place.
	return cookie.length > MAX_FORM_COOKIE ? null : new Headers({ 'set-cookie': cookie })
}

/** The refused form carried to this address (once: the headers clear it), or null. */
export async function takeRefusedForm(request: Request, slug: string) {
	const value: unknown = await refusedFormCookie().parse(request.headers.get('cookie'))
	if (!value || typeof value !== 'object' || (value as { slug?: unknown }).slug !== slug) return null
	const result = (value as { result?: unknown }).result
	if (!result || typeof result !== 'object') return null
	const headers = new Headers({ 'set-cookie': await refusedFormCookie().serialize('', { maxAge: 0 }) })
	return { result: result as SubmissionResult<string[]>, headers }
}

/** After a booking the details are forgotten and the booking remembered (an hour), for `bookingAtChoices`. */
export async function bookedHeaders(slug: string, booked: { id: string; token: string }) {
	return new Headers({ 'set-cookie': await contactCookie().serialize({ slug, booked: { id: booked.id, token: booked.token } }) })
}

/**
 * The booking that already is what the details or confirm step's address asks for: the one
 * this browser just made here (Back from its booked page), or the one being moved, once moved.
 * The step then leads to it instead of calling its own time taken.
 */
export async function bookingAtChoices(request: Request, slug: string): Promise<{ id: string; token: string } | null> {
	const choices = readChoices(new URL(request.url))
	if (!choices.start) return null
	const value: unknown = await contactCookie().parse(request.headers.get('cookie'))
	const remembered =
		value && typeof value === 'object' && (value as { slug?: unknown }).slug === slug ? (value as { booked?: unknown }).booked : null
	const token = choices.reschedule ?? (remembered && typeof remembered === 'object' ? (remembered as { token?: unknown }).token : null)
	if (typeof token !== 'string') return null
	const booking = await getManagedBooking(token)
	if (!booking || booking.organizationSlug !== slug || booking.status === 'cancelled') return null
	// The same start with the same provider: another provider at that time is another booking
	// (a second person) or a move still to make.
	const same =
		Date.parse(booking.startsAt) === Date.parse(choices.start) &&
		booking.providerId === choices.provider &&
		(choices.reschedule !== undefined || booking.serviceId === choices.service)
	return same ? { id: booking.id, token } : null
}

/** The address of a booking's page, with its manage token. */
export const bookedUrl = (slug: string, booked: { id: string; token: string }) =>
	`/book/${encodeURIComponent(slug)}/booked/${booked.id}?token=${encodeURIComponent(booked.token)}`
