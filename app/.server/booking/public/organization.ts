/**
 * The organization and its catalogue as the public booking pages read them (docs/product.md,
 * Public booking): its branding, services, providers and booking settings, and the busy times
 * the free times are worked out from. Every call runs as `anon` through the public SQL functions.
 */
import type { RouterContextProvider } from 'react-router'
import { DEFAULT_BUSINESS_HOURS, parseWeeklyHours, type AvailabilityInput, type WeeklyHours } from '#app/lib/availability.ts'
import { addDays, dateIn } from '#app/lib/dates.ts'
import type { BookingSettings } from '../staff.ts'
import { asAnon, sql } from '../../db/index.ts'
import { sharedReads } from '../../db/shared-reads.ts'

/** The page lists this many days ahead at most (inside the busy-ranges function's 62-day window, a day either side included). */
export const LISTED_DAYS = 60

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

/** The organization of a public booking page by its slug, as anon sees it; null when there is none. */
export async function getPublicOrganization(slug: string): Promise<PublicOrganization | null> {
	if (!slug || slug.length > 200) return null
	const row = await asAnon((trx) =>
		sql<OrganizationRow>`select * from public.get_public_organization(${slug})`.execute(trx).then((r) => r.rows[0]),
	)
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

function catalogueOf({
	services,
	providers,
	settings: s,
}: {
	services: ServiceRow[]
	providers: ProviderRow[]
	settings: SettingsRow | null
}): Catalogue {
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
export async function getAvailabilityInput(
	organizationId: string,
	catalogue: Catalogue,
	service: PublicService,
	now: Date,
): Promise<AvailabilityInput> {
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
		appointments: busy.map((r) => ({
			providerId: r.provider_id,
			startsAt: new Date(r.busy_from),
			endsAt: new Date(r.busy_until),
			bufferEndsAt: new Date(r.busy_until),
		})),
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
