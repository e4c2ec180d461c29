/**
 * The public booking wizard (docs/product.md, Public booking; docs/decisions/013-public-wizard.md).
 * Every database call runs as `anon` through the public SQL functions; the availability comes
 * from the one module the staff calendar uses too (app/lib/availability.ts).
 *
 * The choices travel in the query string (service, mode, provider, date, start, tz, reschedule);
 * the contact details in a short-lived signed cookie. `resolveWizard` reads both, keeps what is
 * still valid and says which step first needs input.
 */
import { randomBytes } from 'node:crypto'
import type { SubmissionResult } from '@conform-to/react'
import { createCookie, data, redirect, type RouterContextProvider } from 'react-router'
import {
	availabilityOf,
	DEFAULT_BUSINESS_HOURS,
	isSlotAvailable,
	parseWeeklyHours,
	type Availability,
	type AvailabilityInput,
	type WeeklyHours,
} from '#app/lib/availability.ts'
import { addDays, dateIn, isTimeZone } from '#app/lib/dates.ts'
import { contactSchema, type ContactValues } from '#app/lib/schemas/book.ts'
import { BOOKING_REFUSALS, type BookingSettings } from '../staff.ts'
import { notifyBookingChange } from '../live-updates.ts'
import { asAnon, dbErrorCode, sql } from '../../db/index.ts'
import { env } from '../../env.ts'
import { logError } from '../../log.ts'
import { notifyStaffOfBooking } from '../../notifications/index.ts'
import { allowEvent } from '../../rate-limit.ts'
import { open, seal } from '../../secrets.ts'
import { secureCookies } from '../../security.ts'
import { sharedReads } from '../../db/shared-reads.ts'
import { sendBookingMail, whenText } from './mail.ts'
import { isUuid } from '#app/lib/uuid.ts'

const TOKEN = /^[0-9a-f]{64}$/
/** The page lists this many days ahead at most (inside the busy-ranges function's 62-day window, a day either side included). */
export const LISTED_DAYS = 60

export const STEPS = ['service', 'slot', 'details', 'confirm'] as const
export type Step = (typeof STEPS)[number]

// ---------------------------------------------------------------------------------------------
// Organization, branding, catalogue
// ---------------------------------------------------------------------------------------------

export type Branding = { logoUrl: string | null; primary: string; secondary: string }
const DEFAULT_BRANDING = { primary: '#2563eb', secondary: '#64748b' }
const HEX = /^#[0-9a-fA-F]{6}$/

/** The one place the page's branding is read: the organization's logo and colours, else the defaults. */
export function brandingOf(org: { logo_url: string | null; brand_colors: unknown }): Branding {
	const colors = (org.brand_colors && typeof org.brand_colors === 'object' ? org.brand_colors : {}) as Record<string, unknown>
	const pick = (key: 'primary' | 'secondary') => {
		const value = colors[key]
		return typeof value === 'string' && HEX.test(value) ? value : DEFAULT_BRANDING[key]
	}
	const logo = typeof org.logo_url === 'string' && /^(https?:\/\/|\/)[^\s"'<>]+$/.test(org.logo_url) ? org.logo_url : null
	return { logoUrl: logo, primary: pick('primary'), secondary: pick('secondary') }
}

export type PublicOrganization = { id: string; slug: string; name: string; branding: Branding }

type OrganizationRow = { id: string; slug: string; name: string; logo_url: string | null; brand_colors: unknown }

function organizationOf(row: OrganizationRow): PublicOrganization {
	return { id: row.id, slug: row.slug, name: row.name, branding: brandingOf(row) }
}

export async function getPublicOrganization(slug: string): Promise<PublicOrganization | null> {
	if (!slug || slug.length > 200) return null
	const row = await asAnon((trx) => sql<OrganizationRow>`select * from public.get_public_organization(${slug})`.execute(trx).then((r) => r.rows[0]))
	return row ? organizationOf(row) : null
}

/**
 * How long the public pages keep what every visitor of an organization reads alike, the
 * catalogue and the busy times, when no change has made them forget it first
 * (app/.server/db/shared-reads.ts; docs/decisions/024-public-booking-reads.md).
 */
const SHARED_READS = { ttlMs: 10_000, max: 500 }
type OrganizationWithCatalogue = { org: PublicOrganization; catalogue: Catalogue } | null
const catalogues = sharedReads<OrganizationWithCatalogue>(SHARED_READS)

/**
 * The organization and its catalogue in one transaction and one statement (the public functions'
 * rows as JSON: docs/decisions/023-fewer-round-trips.md); null when there is no such organization.
 */
export async function getOrganizationWithCatalogue(slug: string): Promise<OrganizationWithCatalogue> {
	if (!slug || slug.length > 200) return null
	return catalogues.get(slug, () => readOrganizationWithCatalogue(slug))
}

async function readOrganizationWithCatalogue(slug: string): Promise<OrganizationWithCatalogue> {
	const row = await asAnon((trx) =>
		sql<{ org: OrganizationRow; services: ServiceRow[]; providers: ProviderRow[]; settings: SettingsRow | null }>`
			with o as (select * from public.get_public_organization(${slug}))
			select to_jsonb(o) as org,
				(select coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name, 'description', s.description,
					'price', s.price::text, 'duration_minutes', s.duration_minutes, 'color', s.color) order by s.n), '[]')
					from public.get_public_services(o.id) with ordinality s(id, name, description, price, duration_minutes, color, n)) as services,
				(select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'display_name', p.display_name, 'bio', p.bio,
					'avatar_url', p.avatar_url, 'business_hours', p.business_hours) order by p.n), '[]')
					from public.get_public_providers(o.id) with ordinality p(id, display_name, bio, avatar_url, business_hours, n)) as providers,
				(select to_jsonb(b) from public.get_public_booking_settings(o.id) b) as settings
			from o`
			.execute(trx)
			.then((r) => r.rows[0]),
	)
	return row ? { org: organizationOf(row.org), catalogue: catalogueOf(row) } : null
}

const perRequest = new WeakMap<object, ReturnType<typeof getOrganizationWithCatalogue>>()

/**
 * The same, read once per request: the /book layout (the header) and the step's loader run side
 * by side on one request and share the read. Keyed by the request's router context, which both
 * loaders get (each may get its own Request object).
 */
export function organizationFor(context: Readonly<RouterContextProvider>, slug: string) {
	let found = perRequest.get(context)
	if (!found) {
		found = getOrganizationWithCatalogue(slug)
		perRequest.set(context, found)
	}
	return found
}

export type PublicService = { id: string; name: string; description: string | null; price: string; durationMinutes: number; color: string }
export type PublicProvider = { id: string; displayName: string; bio: string | null; avatarUrl: string | null; hours: WeeklyHours | null }
/** The booking settings a visitor's steps follow: the organization's own. */
export type PublicSettings = BookingSettings

export type Catalogue = { services: PublicService[]; providers: PublicProvider[]; settings: PublicSettings }

type ServiceRow = { id: string; name: string; description: string | null; price: string; duration_minutes: number; color: string }
type ProviderRow = { id: string; display_name: string; bio: string | null; avatar_url: string | null; business_hours: unknown }
type SettingsRow = {
	min_advance_hours: number
	max_advance_days: number
	buffer_minutes: number
	auto_confirm: boolean
	allow_guest_booking: boolean
	require_phone: boolean
	cancellation_hours: number
	timezone: string
	business_hours: unknown
}

function catalogueOf({ services, providers, settings: s }: { services: ServiceRow[]; providers: ProviderRow[]; settings: SettingsRow | null }): Catalogue {
	return {
		services: services.map((r) => ({
			id: r.id,
			name: r.name,
			description: r.description,
			price: String(r.price),
			durationMinutes: r.duration_minutes,
			color: r.color,
		})),
		providers: providers.map((r) => ({
			id: r.id,
			displayName: r.display_name,
			bio: r.bio,
			avatarUrl: r.avatar_url,
			hours: parseWeeklyHours(r.business_hours),
		})),
		settings: {
			minAdvanceHours: s?.min_advance_hours ?? 1,
			maxAdvanceDays: s?.max_advance_days ?? 30,
			bufferMinutes: s?.buffer_minutes ?? 0,
			autoConfirm: s?.auto_confirm ?? true,
			allowGuestBooking: s?.allow_guest_booking ?? true,
			requirePhone: s?.require_phone ?? false,
			cancellationHours: s?.cancellation_hours ?? 24,
			timezone: s?.timezone ?? 'UTC',
			businessHours: parseWeeklyHours(s?.business_hours) ?? DEFAULT_BUSINESS_HOURS,
		},
	}
}

/** The availability input of one service from today: busy ranges and overrides read as anon. */
export async function getAvailabilityInput(organizationId: string, catalogue: Catalogue, service: PublicService, now: Date): Promise<AvailabilityInput> {
	const { settings } = catalogue
	const today = dateIn(settings.timezone, now)
	const days = Math.min(settings.maxAdvanceDays + 1, LISTED_DAYS)
	const last = addDays(today, days - 1)
	const { busy, overrides } = await busyTimes.get(`${organizationId} ${today} ${last}`, () => readBusyTimes(organizationId, today, last))
	return {
		now,
		timezone: settings.timezone,
		settings,
		service: { durationMinutes: service.durationMinutes },
		providers: catalogue.providers.map((p) => ({ id: p.id, hours: p.hours })),
		appointments: busy.map((r) => ({ providerId: r.provider_id, startsAt: new Date(r.busy_from), endsAt: new Date(r.busy_until), bufferEndsAt: new Date(r.busy_until) })),
		overrides: overrides.map((r) => ({ date: r.date, providerId: r.provider_id, closed: r.closed, start: r.start_time, end: r.end_time })),
		fromDate: today,
		days,
	}
}

type BusyTimes = {
	busy: Array<{ provider_id: string; busy_from: number; busy_until: number }>
	overrides: Array<{ provider_id: string | null; date: string; closed: boolean; start_time: string | null; end_time: string | null }>
}
const busyTimes = sharedReads<BusyTimes>(SHARED_READS)

/** Busy ranges and date overrides from `today` to `last`, in one statement; instants travel as epoch milliseconds. */
function readBusyTimes(organizationId: string, today: string, last: string) {
	return asAnon((trx) =>
		sql<BusyTimes>`
			select
				(select coalesce(jsonb_agg(jsonb_build_object('provider_id', b.provider_id,
					'busy_from', extract(epoch from b.busy_from) * 1000, 'busy_until', extract(epoch from b.busy_until) * 1000) order by b.n), '[]')
					from public.get_public_busy_ranges(${organizationId}, ${addDays(today, -1)}::date, ${addDays(last, 1)}::date)
						with ordinality b(provider_id, busy_from, busy_until, n)) as busy,
				(select coalesce(jsonb_agg(jsonb_build_object('provider_id', d.provider_id, 'date', d.date, 'closed', d.closed,
					'start_time', d.start_time, 'end_time', d.end_time) order by d.n), '[]')
					from public.get_public_date_overrides(${organizationId}, ${today}::date, ${last}::date)
						with ordinality d(provider_id, date, closed, start_time, end_time, n)) as overrides`
			.execute(trx)
			.then((r) => r.rows[0]!),
	)
}

// ---------------------------------------------------------------------------------------------
// Choices in the query string
// ---------------------------------------------------------------------------------------------

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
		reschedule: reschedule && TOKEN.test(reschedule) ? reschedule : undefined,
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

export function stepUrl(slug: string, step: Step, choices: Partial<Choices>) {
	return `/book/${encodeURIComponent(slug)}/${step}${choiceQuery(choices)}`
}

// ---------------------------------------------------------------------------------------------
// Contact details cookie
// ---------------------------------------------------------------------------------------------

/** Browsers keep a cookie up to about 4 KB (its name, value and attributes). */
const MAX_FORM_COOKIE = 3800

function contactCookie() {
	return createCookie('p2p_book', { path: '/book', sameSite: 'lax', httpOnly: true, maxAge: 60 * 60, secrets: [env().SESSION_SECRET], secure: secureCookies() })
}

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
	return createCookie('p2p_book_form', { path: '/book', sameSite: 'lax', httpOnly: true, maxAge: 5 * 60, secrets: [env().SESSION_SECRET], secure: secureCookies() })
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
	const remembered = value && typeof value === 'object' && (value as { slug?: unknown }).slug === slug ? (value as { booked?: unknown }).booked : null
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

export const bookedUrl = (slug: string, booked: { id: string; token: string }) =>
	`/book/${encodeURIComponent(slug)}/booked/${booked.id}?token=${encodeURIComponent(booked.token)}`

// ---------------------------------------------------------------------------------------------
// Resolving a step: what is chosen, what is still valid, where to go
// ---------------------------------------------------------------------------------------------

export type Wizard = {
	org: PublicOrganization
	catalogue: Catalogue
	choices: Choices
	service: PublicService | null
	provider: PublicProvider | null
	/** The chosen service's availability (null until a service is chosen): worked out as far as a step asks. */
	availability: Availability | null
	/** The chosen start, when it is bookable with the chosen provider. */
	slot: { start: string; end: string; date: string; label: string } | null
	contact: ContactValues | null
	reschedule: ManagedBooking | null
}

/**
 * The chosen time as the visitor reads it, in the zone they show times in (details and
 * confirmation steps, once `resolveWizard` has a slot).
 */
export function chosenWhen(w: Wizard, language: string) {
	const slot = w.slot!
	return whenText({ startsAt: slot.start, endsAt: slot.end, timezone: w.catalogue.settings.timezone }, language, w.choices.tz ?? w.catalogue.settings.timezone)
}

/** Reasons that hold for every provider: a start off the organization's grid or hours, past, too soon or too far ahead. */
const TIME_REASONS: readonly string[] = ['invalid_start', 'in_past', 'too_soon', 'too_far_ahead', 'off_grid', 'outside_business_hours']

/** Why a start chosen before its provider is not offered: the time's own reason, else taken. */
function unlistedReason(input: AvailabilityInput, catalogue: Catalogue, start: string) {
	const first = catalogue.providers[0]
	const check = first ? isSlotAvailable({ ...input, providerId: first.id, start }) : null
	return check && !check.ok && TIME_REASONS.includes(check.reason) ? check.reason : 'slot_taken'
}

/**
 * Everything a step shows, or a redirect to the first step that needs input, keeping the choices
 * that are still valid. A choice that is no longer valid (a service made inactive, a start taken)
 * is dropped; `refused` says why, for the message on the page it lands on.
 */
export async function resolveWizard(
	{ request, context, slug }: { request: Request; context: Readonly<RouterContextProvider>; slug: string },
	step: Step,
	now = new Date(),
): Promise<Wizard> {
	const found = await organizationFor(context, slug)
	if (!found) throw new Response(null, { status: 404 })
	const { org, catalogue } = found
	// "Accept bookings from the public page" off: every step says so, instead of a wizard that
	// fails at the last one (decision 007). Booked pages stay open to view and cancel.
	if (!catalogue.settings.allowGuestBooking) throw data({ bookingsClosed: true }, { status: 403 })
	const url = new URL(request.url)
	const choices = readChoices(url)
	const reschedule = choices.reschedule ? await getManagedBooking(choices.reschedule) : null
	if (choices.reschedule && (!reschedule || reschedule.organizationSlug !== org.slug)) delete choices.reschedule
	// A booking cancelled, or inside its notice, can no longer move: its page says so at once,
	// not the last step (an old "Choose another time" link, a tab left open).
	else if (reschedule && choices.reschedule && !isChangeable(reschedule, now)) throw redirect(bookedUrl(org.slug, { id: reschedule.id, token: choices.reschedule }))
	if (reschedule?.serviceId) choices.service = reschedule.serviceId
	const service = catalogue.services.find((s) => s.id === choices.service) ?? null
	const provider = service ? (catalogue.providers.find((p) => p.id === choices.provider) ?? null) : null
	const valid: Choices = { mode: choices.mode, tz: choices.tz, reschedule: reschedule ? choices.reschedule : undefined }
	const wizard: Wizard = { org, catalogue, choices: valid, service, provider, availability: null, slot: null, contact: null, reschedule }
	const needs = (at: Step, refused?: string) => {
		if (STEPS.indexOf(step) > STEPS.indexOf(at) || (step === at && refused)) {
			const target = stepUrl(org.slug, at, wizard.choices) + (refused ? `${choiceQuery(wizard.choices) ? '&' : '?'}refused=${refused}` : '')
			throw redirect(target)
		}
	}
	if (!service) {
		needs('service', choices.service ? 'service_unavailable' : undefined)
		return wizard
	}
	valid.service = service.id
	if (step === 'service') return wizard
	const input = await getAvailabilityInput(org.id, catalogue, service, now)
	const availability = (wizard.availability = availabilityOf(input))
	if (provider) valid.provider = provider.id
	else if (choices.provider) return needs('slot', 'provider_unavailable'), wizard
	if (choices.date && availability.listed(choices.date)) valid.date = choices.date
	if (choices.more) valid.more = choices.more
	if (choices.start) {
		if (provider) {
			const check = isSlotAvailable({ ...input, providerId: provider.id, start: choices.start })
			if (check.ok) {
				valid.start = check.slot.start
				wizard.slot = { start: check.slot.start, end: check.slot.end, date: check.slot.date, label: check.slot.label }
			} else if (step !== 'slot') {
				return needs('slot', check.reason), wizard
			}
		} else {
			// Time first: the start stays while the visitor picks a provider free then.
			const listed = (availability.slotAt(choices.start)?.providerIds.length ?? 0) > 0
			if (listed) valid.start = choices.start
			else if (step !== 'slot') return needs('slot', unlistedReason(input, catalogue, choices.start)), wizard
		}
	}
	if (!wizard.slot) {
		needs('slot')
		return wizard
	}
	if (reschedule) {
		// A reschedule keeps the booking's details: from the slot straight to confirmation.
		if (step === 'details') throw redirect(stepUrl(org.slug, 'confirm', valid))
		return wizard
	}
	wizard.contact = await readContact(request, org.slug)
	if (step === 'details') return wizard
	if (!wizard.contact || (catalogue.settings.requirePhone && !wizard.contact.phone)) needs('details')
	return wizard
}

// ---------------------------------------------------------------------------------------------
// Booking, cancelling, rescheduling
// ---------------------------------------------------------------------------------------------

/**
 * The refusals the wizard explains: the booking functions' shared codes (the same checks as the
 * staff calendar's, app/.server/booking/staff.ts), then the public side's own (guests, limits, the
 * manage link).
 */
export const PUBLIC_REFUSALS = [
	...BOOKING_REFUSALS,
	'guest_booking_disabled',
	'too_many_bookings',
	'rate_limited',
	'booking_not_found',
	'already_cancelled',
	'not_cancellable',
	'too_late_to_cancel',
	'too_late_to_change',
	'organization_not_found',
	'honeypot',
	'day_unavailable',
] as const
export type PublicRefusal = (typeof PUBLIC_REFUSALS)[number]

export function isRefusal(value: unknown): value is PublicRefusal {
	return typeof value === 'string' && (PUBLIC_REFUSALS as readonly string[]).includes(value)
}

/** The `refused` code of an address, when it is one of ours (anything else shows nothing). */
export function refusedParam(request: Request): PublicRefusal | null {
	const code = new URL(request.url).searchParams.get('refused')
	return isRefusal(code) ? code : null
}

function refusalOf(error: unknown): PublicRefusal {
	const code = dbErrorCode(error)
	if (code === '23P01') return 'slot_taken'
	if (isRefusal(code)) return code
	throw error
}

/** Per-address limits of the public pages (env-configurable; see app/.server/env.ts). */
export async function allowPublic(kind: 'book_post' | 'slot_lookup', address: string) {
	const e = env()
	const limit = kind === 'book_post' ? { limit: e.BOOK_POSTS_PER_HOUR, windowMinutes: 60 } : { limit: e.BOOK_LOOKUPS_PER_HOUR, windowMinutes: 60 }
	return allowEvent(kind, address, limit)
}

/** A confirm form's attempt key: random, URL-safe (`newBookingAttempt`). */
const ATTEMPT = /^[\w-]{20,100}$/

/** A fresh attempt key for one rendering of the confirm form. */
export function newBookingAttempt() {
	return randomBytes(18).toString('base64url')
}

const attemptContext = (attempt: string) => `booking-attempt:${attempt}`

/**
 * The booking a confirm form already made (its attempt key posted twice: a double tap with
 * JavaScript off, a retried request), as the address of its booked page; null when none.
 */
export async function bookedByAttempt(attempt: unknown): Promise<{ id: string; token: string } | null> {
	if (typeof attempt !== 'string' || !ATTEMPT.test(attempt)) return null
	const row = await asAnon(async (trx) => (await sql<{ appointment_id: string; sealed_token: string }>`
		select * from public.booking_attempt(${attempt})`.execute(trx)).rows[0])
	if (!row) return null
	try {
		return { id: row.appointment_id, token: open(row.sealed_token, attemptContext(attempt)) }
	} catch {
		return null
	}
}

/**
 * Books a slot for a guest. With the confirm form's attempt key, the booking remembers it in
 * its own transaction, so the same form posted again finds this booking (`bookedByAttempt`).
 */
export async function createPublicBooking(
	org: PublicOrganization,
	input: { serviceId: string; providerId: string; start: string; contact: ContactValues; attempt?: unknown },
	language: string,
): Promise<{ ok: true; id: string; token: string } | { ok: false; code: PublicRefusal }> {
	const attempt = typeof input.attempt === 'string' && ATTEMPT.test(input.attempt) ? input.attempt : null
	try {
		const row = await asAnon(async (trx) => {
			await sql`select set_config('app.booking_max_upcoming', ${String(env().BOOK_MAX_UPCOMING_PER_EMAIL)}, true)`.execute(trx)
			const r = await sql<{ id: string; manage_token: string }>`
				select id, manage_token from public.create_booking(${org.id}, ${input.serviceId}, ${input.providerId},
					${input.start}::timestamptz, ${input.contact.name}, ${input.contact.email}, ${input.contact.phone ?? null}, ${input.contact.notes ?? null})`.execute(trx)
			const booked = r.rows[0]!
			if (attempt) {
				await sql`select public.remember_booking_attempt(${attempt}, ${booked.id}, ${seal(booked.manage_token, attemptContext(attempt))})`.execute(trx)
			}
			return booked
		})
		await afterBooked(org.id, row.manage_token, language)
		return { ok: true, id: row.id, token: row.manage_token }
	} catch (error) {
		const code = refusalOf(error)
		// The same form's other post won the slot a moment ago: that booking is this guest's.
		const twin = code === 'slot_taken' && attempt ? await bookedByAttempt(attempt) : null
		if (twin) return { ok: true, ...twin }
		return { ok: false, code }
	}
}

export async function cancelPublicBooking(token: string, language: string): Promise<{ ok: true } | { ok: false; code: PublicRefusal }> {
	try {
		await asAnon((trx) => sql`select * from public.cancel_booking(${token})`.execute(trx))
		await afterCancelled(token, language)
		return { ok: true }
	} catch (error) {
		return { ok: false, code: refusalOf(error) }
	}
}

export async function reschedulePublicBooking(token: string, providerId: string, start: string, language: string): Promise<{ ok: true } | { ok: false; code: PublicRefusal }> {
	try {
		await asAnon((trx) => sql`select * from public.reschedule_booking(${token}, ${providerId}, ${start}::timestamptz)`.execute(trx))
		await afterRescheduled(token, language)
		return { ok: true }
	} catch (error) {
		return { ok: false, code: refusalOf(error) }
	}
}

/** Whether the visitor can still move or cancel a booking online. */
export function isChangeable(booking: Pick<ManagedBooking, 'status' | 'cancellableUntil'>, now = new Date()) {
	return (booking.status === 'pending' || booking.status === 'confirmed') && Date.parse(booking.cancellableUntil) > now.getTime()
}

export type ManagedBooking = {
	id: string
	status: 'pending' | 'confirmed' | 'cancelled' | 'completed' | 'no_show'
	startsAt: string
	endsAt: string
	timezone: string
	serviceName: string | null
	durationMinutes: number | null
	providerName: string | null
	guestName: string
	guestEmail: string
	guestPhone: string | null
	notes: string | null
	totalPrice: string
	organizationName: string
	organizationSlug: string
	organizationId: string
	serviceId: string | null
	providerId: string | null
	cancellableUntil: string
	revision: number
}

export async function getManagedBooking(token: string): Promise<ManagedBooking | null> {
	if (!TOKEN.test(token)) return null
	const row = await asAnon((trx) =>
		sql<Record<string, unknown>>`select * from public.get_public_booking(${token})`.execute(trx).then((r) => r.rows[0]),
	)
	if (!row) return null
	const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString()
	return {
		id: String(row.id),
		status: row.status as ManagedBooking['status'],
		startsAt: iso(row.starts_at),
		endsAt: iso(row.ends_at),
		timezone: String(row.timezone),
		serviceName: (row.service_name as string | null) ?? null,
		durationMinutes: (row.duration_minutes as number | null) ?? null,
		providerName: (row.provider_name as string | null) ?? null,
		guestName: String(row.guest_name),
		guestEmail: String(row.guest_email),
		guestPhone: (row.guest_phone as string | null) ?? null,
		notes: (row.notes as string | null) ?? null,
		totalPrice: String(row.total_price),
		organizationName: String(row.organization_name),
		organizationSlug: String(row.organization_slug),
		organizationId: String(row.organization_id),
		serviceId: (row.service_id as string | null) ?? null,
		providerId: (row.provider_id as string | null) ?? null,
		cancellableUntil: iso(row.cancellable_until),
		revision: Number(row.revision ?? 0),
	}
}

// ---------------------------------------------------------------------------------------------
// After a booking changes: every side effect in one place per event. The staff notification
// mails (the settings' notification preference) belong here too.
// ---------------------------------------------------------------------------------------------

export async function afterBooked(organizationId: string, token: string, language: string) {
	notifyBookingChange(organizationId)
	const booking = await getManagedBooking(token)
	if (!booking) return
	sendBookingMail('booked', booking, token, language)
	notifyStaff(booking, 'booked')
}

export async function afterCancelled(token: string, language: string) {
	const booking = await getManagedBooking(token)
	if (!booking) return
	notifyBookingChange(booking.organizationId)
	sendBookingMail('cancelled', booking, token, language)
	notifyStaff(booking, 'cancelled')
}

export async function afterRescheduled(token: string, language: string) {
	const booking = await getManagedBooking(token)
	if (!booking) return
	notifyBookingChange(booking.organizationId)
	sendBookingMail('rescheduled', booking, token, language)
	notifyStaff(booking, 'rescheduled')
}

/**
 * The staff's mail of the booking (their "Email notifications" preference, docs/product.md,
 * Settings): sent in the background, so the visitor's page never waits for it or fails by it.
 */
function notifyStaff(booking: ManagedBooking, kind: 'booked' | 'cancelled' | 'rescheduled') {
	void notifyStaffOfBooking({ organizationId: booking.organizationId, appointmentId: booking.id, kind }).catch((error: unknown) =>
		logError(error, { where: 'staff booking notice', appointmentId: booking.id }),
	)
}
