/**
 * Availability: the bookable start times of one service, for the public booking wizard and the
 * staff calendar alike, and the check the server runs on a requested start before it books.
 *
 * Isomorphic and pure: no database, no React, no clock (the caller passes `now`). The rules and
 * why they are what they are: docs/decisions/010-availability-rules.md. They follow what the
 * database enforces (`create_booking`, the `booking_appointments_no_overlap` constraint; see
 * "Bookings cannot overlap" in docs/data-model.md), never offering a start it would refuse.
 *
 * - Days run from today in the organization's timezone to `maxAdvanceDays` ahead. On each day,
 *   starts step by the service's duration from the opening time, as wall-clock times of that
 *   date in the organization's timezone: 09:00 stays 09:00 across daylight-saving changes, a
 *   wall time that does not exist (spring forward) gives no start, and one that happens twice
 *   (fall back) gives two, told apart by their UTC offset. A slot ends by closing time.
 * - A start is at least `minAdvanceHours` after now and at most `maxAdvanceDays` × 24 h after it.
 * - A provider is free when [start, end + buffer) overlaps none of their busy ranges
 *   [starts_at, buffer_ends_at) of pending and confirmed appointments, and the slot lies inside
 *   their own hours if they have some (which narrow the organization's).
 * - Date overrides close a day or replace its hours, for everyone or for one provider.
 */
import { tzOffset } from '@date-fns/tz'
import { isActiveStatus } from './appointments.ts'
import { addDays, parseIsoDate } from './dates.ts'

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/**
 * One weekday of `booking_settings.business_hours` or `booking_providers.business_hours`:
 * wall-clock "HH:mm" in the organization's timezone; `end` may be "24:00"; start before end.
 */
export type DayHours = { start: string; end: string; enabled: boolean }
/** The jsonb of `business_hours`: every weekday, monday to sunday. */
export type WeeklyHours = Record<Weekday, DayHours>

/** The default of `booking_settings.business_hours`: 09:00 to 17:00, Monday to Friday. */
export const DEFAULT_BUSINESS_HOURS: WeeklyHours = Object.fromEntries(
	WEEKDAYS.map((day, i) => [day, { start: '09:00', end: '17:00', enabled: i < 5 }]),
) as WeeklyHours

/**
 * A date override, one row each: a day off (`closed`) or special hours (`start`–`end`) on one
 * local date, for the whole organization (`providerId` null) or one provider. Several rows with
 * hours for the same date and provider are several opening periods; a closed row wins over them.
 * A provider's special hours replace their weekly hours that day, and still lie inside the
 * organization's hours of that day; the organization's special hours replace its weekly hours.
 */
export type DateOverride = {
	date: string
	providerId: string | null
	closed: boolean
	start?: string | null
	end?: string | null
}

export type BookingRules = {
	minAdvanceHours: number
	maxAdvanceDays: number
	bufferMinutes: number
	businessHours: WeeklyHours
}

export type AvailabilityProvider = {
	id: string
	/** The provider's own weekly hours (`booking_providers.business_hours`); null: the organization's. */
	hours?: WeeklyHours | null
}

/**
 * An appointment that may block its provider: a `booking_appointments` row or a
 * `get_public_busy_ranges` row. It blocks from `startsAt` to `bufferEndsAt` (the column the
 * exclusion constraint uses, with the buffer in force when it was booked) or, when that is
 * absent, to `endsAt` plus the current buffer. Only active appointments block (app/lib/appointments.ts);
 * without a status, it blocks.
 */
export type BusyAppointment = {
	providerId: string | null
	startsAt: string | Date
	endsAt: string | Date
	bufferEndsAt?: string | Date | null
	status?: string | null
}

export type AvailabilityInput = {
	now: Date | string | number
	/** IANA name, `booking_settings.timezone`. */
	timezone: string
	settings: BookingRules
	service: { durationMinutes: number }
	providers: readonly AvailabilityProvider[]
	appointments?: readonly BusyAppointment[]
	overrides?: readonly DateOverride[]
	/** First local date to list (default: today in the organization's timezone). */
	fromDate?: string
	/** How many dates to list (default: through the last bookable day, at most MAX_LISTED_DAYS). */
	days?: number
}

export const MAX_LISTED_DAYS = 400

export type Slot = {
	/** UTC instants, ISO 8601: the identity of a slot (unique, unlike its local time). */
	start: string
	end: string
	/** Local date, start and end in the organization's timezone. */
	date: string
	time: string
	endTime: string
	/** The UTC offset in force at the start, e.g. "-04:00". */
	offset: string
	/** The local time happens twice that day (clocks went back): show the offset. */
	repeated: boolean
	/** "09:00", or "01:00 (UTC-04:00)" for a repeated time. */
	label: string
	/** The providers free for this slot, in the order given; empty when none is. */
	providerIds: string[]
}

export type AvailabilityDay = { date: string; weekday: Weekday; slots: Slot[] }

/** Why a start is refused; the database's error codes where it has one. */
export type SlotRefusal =
	'invalid_start' | 'provider_unavailable' | 'in_past' | 'too_soon' | 'too_far_ahead' | 'outside_business_hours' | 'off_grid' | 'slot_taken'

export type SlotCheck = { ok: true; slot: Slot } | { ok: false; reason: SlotRefusal }

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Opening period of one day, in wall-clock minutes from local midnight; close ≤ 1440. */
type Period = { open: number; close: number }
type DayRule = Period[] | 'closed'

type BusyIndex = { starts: Float64Array; maxEnds: Float64Array }
type PreparedProvider = { id: string; weekly: Period[][] | null; busy: BusyIndex }

type Context = {
	tz: string
	nowMs: number
	earliest: number
	latest: number
	today: number
	lastDay: number
	durationMs: number
	durationMin: number
	bufferMs: number
	orgWeekly: Period[][]
	orgOverrides: Map<number, DayRule>
	providerOverrides: Map<string, Map<number, DayRule>>
	providers: PreparedProvider[]
}

type Candidate = { startMs: number; endMs: number; startMin: number; endMin: number; offset: number; repeated: boolean }

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/** Every listed local date with its slots, each with the providers free for it. */
export function computeAvailability(input: AvailabilityInput): AvailabilityDay[] {
	const ctx = prepare(input, input.providers)
	return listedDays(ctx, input).map((day) => dayOfSlots(ctx, day))
}

/**
 * One service's availability, worked out only as far as it is asked: whether a date is listed,
 * which listed dates have a free slot, the slots of one date. The public wizard shows one day's
 * times and a strip of days: building every slot of every listed day for that cost the slot step
 * most of its time (docs/decisions/030-lighter-pages.md). Each answer is the one
 * `computeAvailability` gives for the same input.
 */
export type Availability = {
	/** Whether `computeAvailability` lists this date. */
	listed(date: string): boolean
	/** The listed dates with a slot free (for this provider, when given): `daysWithSlots`. */
	freeDates(providerId?: string): string[]
	/** The slots of one listed date; none for a date not listed. */
	day(date: string): AvailabilityDay | undefined
	/** The listed slot that starts at this instant (ISO, as a slot's `start`), if any. */
	slotAt(start: string): Slot | undefined
}

export function availabilityOf(input: AvailabilityInput): Availability {
	const ctx = prepare(input, input.providers)
	const days = listedDays(ctx, input)
	const first = days[0] ?? 0
	const isListed = (day: number) => days.length > 0 && day >= first && day <= days[days.length - 1]!
	const built = new Map<number, AvailabilityDay>()
	const day = (n: number) => {
		let found = built.get(n)
		if (!found) built.set(n, (found = dayOfSlots(ctx, n)))
		return found
	}
	const dayNumber = (date: string) => (parseIsoDate(date) === null ? NaN : dayNumberOf(date, 'date'))
	return {
		listed: (date) => isListed(dayNumber(date)),
		freeDates(providerId) {
			const only = providerId === undefined ? null : ctx.providers.findIndex((p) => p.id === providerId)
			if (only === -1) return []
			return days.filter((n) => hasFreeSlot(ctx, n, only)).map(isoOfDay)
		},
		day(date) {
			const n = dayNumber(date)
			return isListed(n) ? day(n) : undefined
		},
		slotAt(start) {
			const ms = Date.parse(start)
			if (!Number.isFinite(ms)) return undefined
			const n = dayOfInstant(ctx.tz, ms)
			return isListed(n) ? day(n).slots.find((s) => s.start === start) : undefined
		},
	}
}

/** The day numbers `input` lists: from `fromDate` (today by default), `days` of them. */
function listedDays(ctx: Context, input: AvailabilityInput): number[] {
	const first = input.fromDate === undefined ? ctx.today : dayNumberOf(input.fromDate, 'fromDate')
	const count = input.days ?? Math.min(MAX_LISTED_DAYS, Math.max(0, ctx.lastDay - first + 1))
	if (!Number.isInteger(count) || count < 0 || count > MAX_LISTED_DAYS) {
		throw new RangeError(`days must be an integer from 0 to ${MAX_LISTED_DAYS}`)
	}
	return Array.from({ length: count }, (_, i) => first + i)
}

/** One listed day with its slots, each with the providers free for it. */
function dayOfSlots(ctx: Context, day: number): AvailabilityDay {
	const slots: Slot[] = []
	const date = isoOfDay(day)
	if (day >= ctx.today && day <= ctx.lastDay) {
		const candidates = candidatesOf(ctx, day)
		const periods = candidates.length > 0 ? ctx.providers.map((p) => providerPeriods(ctx, p, day)) : []
		for (const c of candidates) {
			const free: string[] = []
			ctx.providers.forEach((p, i) => {
				if (providerState(ctx, p, periods[i]!, c) === 'free') free.push(p.id)
			})
			slots.push(toSlot(date, c, free))
		}
	}
	return { date, weekday: weekdayOf(day), slots }
}

/** Whether a day has a slot with a provider free (the provider at index `only`, when given): no slot is built. */
function hasFreeSlot(ctx: Context, day: number, only: number | null): boolean {
	if (day < ctx.today || day > ctx.lastDay) return false
	const candidates = candidatesOf(ctx, day)
	if (candidates.length === 0) return false
	const providers = only === null ? ctx.providers : [ctx.providers[only]!]
	const periods = providers.map((p) => providerPeriods(ctx, p, day))
	return candidates.some((c) => providers.some((p, i) => providerState(ctx, p, periods[i]!, c) === 'free'))
}

/** Wizard, by provider: the slots where this provider is free, soonest first. */
export function slotsForProvider(days: readonly AvailabilityDay[], providerId: string, limit = Infinity): Slot[] {
	const out: Slot[] = []
	for (const day of days) {
		for (const slot of day.slots) {
			if (out.length >= limit) return out
			if (slot.providerIds.includes(providerId)) out.push(slot)
		}
	}
	return out
}

/** Wizard, by time: the slots where at least one provider is free, with how many are. */
export function slotsByTime(days: readonly AvailabilityDay[], limit = Infinity): Array<Slot & { count: number }> {
	const out: Array<Slot & { count: number }> = []
	for (const day of days) {
		for (const slot of day.slots) {
			if (out.length >= limit) return out
			if (slot.providerIds.length > 0) out.push({ ...slot, count: slot.providerIds.length })
		}
	}
	return out
}

/** The local dates with at least one free slot (for one provider, when given). */
export function daysWithSlots(days: readonly AvailabilityDay[], providerId?: string): string[] {
	return days
		.filter((day) =>
			day.slots.some((slot) => (providerId === undefined ? slot.providerIds.length > 0 : slot.providerIds.includes(providerId))),
		)
		.map((day) => day.date)
}

/**
 * Whether one provider can be booked at one start: exactly when `computeAvailability` would list
 * that start with that provider free. The server runs it on a submitted start before it books, so
 * a tampered start (off the grid, outside hours, past, too far ahead, on a taken slot) is refused.
 */
export function isSlotAvailable(
	input: Omit<AvailabilityInput, 'fromDate' | 'days'> & { providerId: string; start: Date | string | number },
): SlotCheck {
	const startMs = toMs(input.start)
	if (!Number.isFinite(startMs)) return { ok: false, reason: 'invalid_start' }
	const provider = input.providers.find((p) => p.id === input.providerId)
	if (!provider) return { ok: false, reason: 'provider_unavailable' }
	const ctx = prepare(input, [provider])
	if (startMs < ctx.nowMs) return { ok: false, reason: 'in_past' }
	if (startMs < ctx.earliest) return { ok: false, reason: 'too_soon' }
	const day = dayOfInstant(ctx.tz, startMs)
	if (startMs > ctx.latest || day > ctx.lastDay) return { ok: false, reason: 'too_far_ahead' }
	const candidate = candidatesOf(ctx, day).find((c) => c.startMs === startMs)
	if (!candidate) {
		const startMin = (startMs + offsetAt(ctx.tz, startMs) * MINUTE - day * DAY) / MINUTE
		const endMs = startMs + ctx.durationMs
		const endMin = (endMs + offsetAt(ctx.tz, endMs) * MINUTE - day * DAY) / MINUTE
		const inside = orgPeriods(ctx, day).some((p) => p.open <= startMin && endMin <= p.close)
		return { ok: false, reason: inside ? 'off_grid' : 'outside_business_hours' }
	}
	const prepared = ctx.providers[0]!
	const state = providerState(ctx, prepared, providerPeriods(ctx, prepared, day), candidate)
	if (state === 'hours') return { ok: false, reason: 'outside_business_hours' }
	if (state === 'busy') return { ok: false, reason: 'slot_taken' }
	return { ok: true, slot: toSlot(isoOfDay(day), candidate, [provider.id]) }
}

/**
 * The `business_hours` jsonb read from the database as `WeeklyHours`, or null when it is not of
 * that shape (the shape the migrations' check constraint enforces).
 */
export function parseWeeklyHours(value: unknown): WeeklyHours | null {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
	const record = value as Record<string, unknown>
	if (Object.keys(record).length !== WEEKDAYS.length) return null
	const out: Partial<WeeklyHours> = {}
	for (const day of WEEKDAYS) {
		const hours = record[day]
		if (typeof hours !== 'object' || hours === null) return null
		const { start, end, enabled } = hours as Record<string, unknown>
		if (typeof start !== 'string' || typeof end !== 'string' || typeof enabled !== 'boolean') return null
		if (parseClock(start, false) === null || parseClock(end, true) === null || start >= end) return null
		out[day] = { start, end, enabled }
	}
	return out as WeeklyHours
}

// ---------------------------------------------------------------------------------------------
// Preparation: parse once, index appointments per provider
// ---------------------------------------------------------------------------------------------

function prepare(input: AvailabilityInput, providers: readonly AvailabilityProvider[]): Context {
	const tz = input.timezone
	if (!Number.isFinite(tzOffset(tz, new Date(0)))) throw new RangeError(`unknown timezone: ${tz}`)
	const nowMs = toMs(input.now)
	if (!Number.isFinite(nowMs)) throw new RangeError('now is not a valid instant')
	const { minAdvanceHours, maxAdvanceDays, bufferMinutes, businessHours } = input.settings
	const durationMin = input.service.durationMinutes
	if (!Number.isInteger(durationMin) || durationMin < 1 || durationMin > 1440) {
		throw new RangeError('durationMinutes must be an integer from 1 to 1440')
	}
	for (const [name, value] of [
		['minAdvanceHours', minAdvanceHours],
		['maxAdvanceDays', maxAdvanceDays],
		['bufferMinutes', bufferMinutes],
	] as const) {
		if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a number ≥ 0`)
	}
	const today = dayOfInstant(tz, nowMs)

	const orgOverrides = new Map<number, DayRule>()
	const providerOverrides = new Map<string, Map<number, DayRule>>()
	for (const row of input.overrides ?? []) {
		const day = dayNumberOf(row.date, 'override date')
		let target = orgOverrides
		if (row.providerId !== null) {
			target = providerOverrides.get(row.providerId) ?? new Map()
			providerOverrides.set(row.providerId, target)
		}
		const current = target.get(day)
		if (row.closed) {
			target.set(day, 'closed')
		} else if (current !== 'closed') {
			const period = parsePeriod(row.start ?? '', row.end ?? '', `override ${row.date}`)
			target.set(
				day,
				[...(current ?? []), period].sort((a, b) => a.open - b.open),
			)
		}
	}

	const ids = new Map<string, Array<[number, number]>>()
	for (const p of providers) ids.set(p.id, [])
	const bufferMs = bufferMinutes * MINUTE
	for (const a of input.appointments ?? []) {
		if (a.providerId === null) continue
		const list = ids.get(a.providerId)
		if (!list || (a.status != null && !isActiveStatus(a.status))) continue
		const from = toMs(a.startsAt)
		const until = a.bufferEndsAt != null ? toMs(a.bufferEndsAt) : toMs(a.endsAt) + bufferMs
		if (!Number.isFinite(from) || !Number.isFinite(until)) throw new RangeError('appointment with an invalid instant')
		list.push([from, until])
	}

	return {
		tz,
		nowMs,
		earliest: nowMs + minAdvanceHours * HOUR,
		latest: nowMs + maxAdvanceDays * DAY,
		today,
		lastDay: today + Math.floor(maxAdvanceDays),
		durationMs: durationMin * MINUTE,
		durationMin,
		bufferMs,
		orgWeekly: parseWeekly(businessHours, 'business hours'),
		orgOverrides,
		providerOverrides,
		providers: providers.map((p) => ({
			id: p.id,
			weekly: p.hours ? parseWeekly(p.hours, `hours of provider ${p.id}`) : null,
			busy: indexBusy(ids.get(p.id) ?? []),
		})),
	}
}

/** Busy ranges sorted by start, with the running maximum of their ends (ranges may overlap). */
function indexBusy(ranges: Array<[number, number]>): BusyIndex {
	ranges.sort((a, b) => a[0] - b[0])
	const starts = new Float64Array(ranges.length)
	const maxEnds = new Float64Array(ranges.length)
	let max = -Infinity
	ranges.forEach(([from, until], i) => {
		starts[i] = from
		max = Math.max(max, until)
		maxEnds[i] = max
	})
	return { starts, maxEnds }
}

/** Whether [from, until) overlaps a busy range: binary search, O(log n). */
function overlapsBusy(busy: BusyIndex, from: number, until: number) {
	let lo = 0
	let hi = busy.starts.length
	while (lo < hi) {
		const mid = (lo + hi) >>> 1
		if (busy.starts[mid]! < until) lo = mid + 1
		else hi = mid
	}
	// Ranges 0..lo-1 start before `until`; one of them overlaps when its end is after `from`.
	return lo > 0 && busy.maxEnds[lo - 1]! > from
}

// ---------------------------------------------------------------------------------------------
// One day: its opening periods, its candidate starts, each provider's state
// ---------------------------------------------------------------------------------------------

function orgPeriods(ctx: Context, day: number): Period[] {
	const rule = ctx.orgOverrides.get(day)
	if (rule === 'closed') return []
	return rule ?? ctx.orgWeekly[weekdayIndex(day)]!
}

/** The candidate starts of a day, inside the organization's hours and the advance window, in time order. */
function candidatesOf(ctx: Context, day: number): Candidate[] {
	const periods = orgPeriods(ctx, day)
	if (periods.length === 0) return []
	const midnight = day * DAY // local midnight, as if it were UTC
	// Offsets at the earliest and latest instant any wall time of the day can be (offsets are
	// within ±14 h): equal means one offset all day (offsets change at most once in two days).
	const before = offsetAt(ctx.tz, midnight - 14 * HOUR)
	const after = offsetAt(ctx.tz, midnight + DAY + 14 * HOUR)
	const uniform = before === after
	const out: Candidate[] = []
	for (const period of periods) {
		for (let m = period.open; m < period.close; m += ctx.durationMin) {
			const wall = midnight + m * MINUTE
			const starts = uniform ? [wall - before * MINUTE] : instantsOfWall(ctx.tz, wall, before, after)
			for (const startMs of starts) {
				if (startMs < ctx.earliest || startMs > ctx.latest) continue
				const endMs = startMs + ctx.durationMs
				const offset = uniform ? before : offsetAt(ctx.tz, startMs)
				const endOffset = uniform ? before : offsetAt(ctx.tz, endMs)
				const endMin = (endMs + endOffset * MINUTE - midnight) / MINUTE
				if (endMin > period.close) continue
				out.push({ startMs, endMs, startMin: m, endMin, offset, repeated: starts.length > 1 })
			}
		}
	}
	if (periods.length > 1) {
		out.sort((a, b) => a.startMs - b.startMs)
		return out.filter((c, i) => i === 0 || c.startMs !== out[i - 1]!.startMs)
	}
	if (!uniform) out.sort((a, b) => a.startMs - b.startMs)
	return out
}

/** The instants at which a wall-clock time happens: none in a gap, two in a repeated hour. */
function instantsOfWall(tz: string, wall: number, before: number, after: number): number[] {
	const out: number[] = []
	for (const offset of before === after ? [before] : [before, after]) {
		const instant = wall - offset * MINUTE
		if (offsetAt(tz, instant) === offset) out.push(instant)
	}
	return out.sort((a, b) => a - b)
}

type ProviderState = 'free' | 'hours' | 'busy'

/** A provider's own periods on a day (none on a day off), or null: the organization's. */
function providerPeriods(ctx: Context, p: PreparedProvider, day: number): Period[] | null {
	const rule = ctx.providerOverrides.get(p.id)?.get(day)
	if (rule === 'closed') return []
	return rule ?? p.weekly?.[weekdayIndex(day)] ?? null
}

function providerState(ctx: Context, p: PreparedProvider, periods: Period[] | null, c: Candidate): ProviderState {
	if (periods !== null) {
		let inside = false
		for (const period of periods) if (period.open <= c.startMin && c.endMin <= period.close) inside = true
		if (!inside) return 'hours'
	}
	return overlapsBusy(p.busy, c.startMs, c.endMs + ctx.bufferMs) ? 'busy' : 'free'
}

function toSlot(date: string, c: Candidate, providerIds: string[]): Slot {
	const time = clock(c.startMin)
	const offset = formatOffset(c.offset)
	return {
		start: isoInstant(c.startMs),
		end: isoInstant(c.endMs),
		date,
		time,
		endTime: clock(c.endMin % 1440),
		offset,
		repeated: c.repeated,
		label: c.repeated ? `${time} (UTC${offset})` : time,
		providerIds,
	}
}

// ---------------------------------------------------------------------------------------------
// Small helpers: dates as day numbers (days since 1970-01-01), clocks as minutes
// ---------------------------------------------------------------------------------------------

function toMs(value: Date | string | number): number {
	if (value instanceof Date) return value.getTime()
	if (typeof value === 'number') return value
	return typeof value === 'string' ? Date.parse(value) : NaN
}

/**
 * The UTC offset in minutes at an instant. Intl is slow (several µs a call), and the instants
 * asked are mostly the same two per date (see candidatesOf), so answers are kept, per timezone,
 * up to a bound.
 */
const offsetCache = new Map<string, Map<number, number>>()

function offsetAt(tz: string, ms: number): number {
	if (tz === 'UTC') return 0
	let cache = offsetCache.get(tz)
	if (!cache) offsetCache.set(tz, (cache = new Map()))
	let offset = cache.get(ms)
	if (offset === undefined) {
		offset = tzOffset(tz, new Date(ms))
		if (cache.size >= 10_000) cache.clear()
		cache.set(ms, offset)
	}
	return offset
}

function dayOfInstant(tz: string, ms: number): number {
	return Math.floor((ms + offsetAt(tz, ms) * MINUTE) / DAY)
}

function dayNumberOf(iso: string, what: string): number {
	if (parseIsoDate(iso) === null) throw new RangeError(`${what} is not a YYYY-MM-DD date: ${iso}`)
	return Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / DAY
}

/**
 * Day numbers as "YYYY-MM-DD", kept up to a bound: a page lists hundreds of slots over a few
 * dozen dates, and Date's toISOString costs about a microsecond a call.
 */
const isoDays = new Map<number, string>()

function isoOfDay(day: number): string {
	let iso = isoDays.get(day)
	if (iso === undefined) {
		iso = new Date(day * DAY).toISOString().slice(0, 10)
		if (isoDays.size >= 10_000) isoDays.clear()
		isoDays.set(day, iso)
	}
	return iso
}

/** `new Date(ms).toISOString()`, from the kept dates and clocks when `ms` is a whole minute (every slot's start and end is). */
function isoInstant(ms: number): string {
	if (ms % MINUTE !== 0) return new Date(ms).toISOString()
	const day = Math.floor(ms / DAY)
	return `${isoOfDay(day)}T${clock((ms - day * DAY) / MINUTE)}:00.000Z`
}

/** 0 for Monday … 6 for Sunday (1970-01-01 was a Thursday). */
function weekdayIndex(day: number): number {
	return (((day + 3) % 7) + 7) % 7
}

function weekdayOf(day: number): Weekday {
	return WEEKDAYS[weekdayIndex(day)]!
}

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/

/** "HH:mm" as minutes from midnight; "24:00" too when it is an end. */
function parseClock(text: string, isEnd: boolean): number | null {
	if (isEnd && text === '24:00') return 1440
	const match = CLOCK.exec(text)
	return match ? Number(match[1]) * 60 + Number(match[2]) : null
}

function parsePeriod(start: string, end: string, what: string): Period {
	const open = parseClock(start, false)
	const close = parseClock(end, true)
	if (open === null || close === null || open >= close) throw new RangeError(`${what}: invalid hours ${start}–${end}`)
	return { open, close }
}

function parseWeekly(hours: WeeklyHours, what: string): Period[][] {
	return WEEKDAYS.map((day) => {
		const h = hours[day]
		if (!h) throw new RangeError(`${what}: ${day} is missing`)
		return h.enabled ? [parsePeriod(h.start, h.end, `${what}, ${day}`)] : []
	})
}

const formatClock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/** "HH:mm" of every minute of a day and of 24:00, built once. */
const CLOCKS = Array.from({ length: 1441 }, (_, m) => formatClock(m))

function clock(minutes: number): string {
	return CLOCKS[minutes] ?? formatClock(minutes)
}

/** A UTC offset in minutes as the slot labels write it: "-04:00". */
export function formatOffset(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+'
	const abs = Math.abs(minutes)
	return `${sign}${clock(abs)}`
}

/** The UTC offset at an instant in a zone, as the calendar and the new-appointment list write it: "-04:00". */
export function offsetText(timezone: string, instant: number) {
	return formatOffset(tzOffset(timezone, new Date(instant)))
}

/** Whether the clocks change during a local day in a zone (a wall time may then happen twice). */
export function clocksChangeOn(day: string, timezone: string) {
	const localMidnight = (date: string) => {
		const utc = Date.parse(`${date}T00:00:00Z`)
		return utc - tzOffset(timezone, new Date(utc)) * 60_000
	}
	return tzOffset(timezone, new Date(localMidnight(day))) !== tzOffset(timezone, new Date(localMidnight(addDays(day, 1)) - 1))
}
