/**
 * The slot step's view (docs/product.md, Public booking): what the by-provider and by-time tabs
 * show for the chosen service, in the display timezone, with every choice a plain link. Times are
 * written as `formatTime` writes them (12-hour in English, 24-hour in Spanish and Portuguese).
 */
import { slotsByTime, slotsForProvider, type AvailabilityDay, type Slot } from '#app/lib/availability.ts'
import { dateIn } from '#app/lib/dates.ts'
import { formatTime } from '#app/lib/format.ts'
import { DISPLAY_TIMEZONES, zoneLabel } from '#app/lib/timezones.ts'
import { stepUrl, type Choices } from './choices.ts'
import type { Wizard } from './wizard.ts'

export const PROVIDER_PAGE = 6
export const TIME_PAGE = 12

// Building an Intl formatter costs far more than using one: one per language and zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat>()
const FORMATS: Record<'clock' | 'day' | 'heading', Intl.DateTimeFormatOptions> = {
	// "HH:MM" in the zone, which formatTime then writes in the language's way.
	clock: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
	day: { weekday: 'short', day: 'numeric', month: 'short' },
	heading: { weekday: 'long', day: 'numeric', month: 'long' },
}
function formatter(kind: keyof typeof FORMATS, language: string, timeZone: string) {
	const key = `${kind}|${language}|${timeZone}`
	let f = formatters.get(key)
	if (!f) {
		f = new Intl.DateTimeFormat(kind === 'clock' ? 'en' : language, { ...FORMATS[kind], timeZone })
		if (formatters.size > 500) formatters.clear()
		formatters.set(key, f)
	}
	return f
}

/** A slot's start in the display zone, in the language's one time format ("2:05 PM", "14:05"). */
function timeLabel(slot: Slot, tz: string, orgTz: string, language: string) {
	if (tz === orgTz) {
		const time = formatTime(slot.time, language)
		// A wall time the clocks pass twice (going back) says which one it is.
		return slot.repeated ? `${time} (UTC${slot.offset})` : time
	}
	return formatTime(formatter('clock', language, tz).format(new Date(slot.start)), language)
}

/**
 * The days listed are the organization's: a time that falls on another day in the display
 * zone (past midnight there) names that day. Undefined when it is the day listed.
 */
function otherDay(slot: Slot, tz: string, orgTz: string, language: string) {
	if (tz === orgTz) return undefined
	const date = dateIn(tz, new Date(slot.start))
	return date === slot.date ? undefined : dayLabel(date, language)
}

/** A slot's day and time in the display zone. */
function dayTimeLabel(slot: Slot, tz: string, orgTz: string, language: string) {
	const date = tz === orgTz ? slot.date : dateIn(tz, new Date(slot.start))
	return `${dayLabel(date, language)} ${timeLabel(slot, tz, orgTz, language)}`
}

function dayLabel(date: string, language: string) {
	return formatter('day', language, 'UTC').format(new Date(`${date}T12:00:00Z`))
}

/** The heading over a day's times, in words: "Tuesday, December 8", "Martes, 8 de diciembre". */
export function dayHeading(date: string, language: string) {
	const text = formatter('heading', language, 'UTC').format(new Date(`${date}T12:00:00Z`))
	return text.charAt(0).toLocaleUpperCase(language) + text.slice(1)
}

/** How many days the day strip lists. */
const DAYS_LISTED = 14

/**
 * The day whose times are shown: the one in the address when it has free time; else, when a
 * booking is being moved, its own day or the next one with free time; else the first.
 */
function shownDay(available: string[], chosen: string | undefined, movedFrom: string | undefined) {
	if (chosen && available.includes(chosen)) return chosen
	return (movedFrom && available.find((d) => d >= movedFrom)) || available[0]
}

/**
 * The day strip: the days with free time from the one before the shown day on, so that the shown
 * day is at the start of the row, in view on a phone without any script scrolling it there.
 */
function listedDays(available: string[], shown: string | undefined) {
	const at = shown ? available.indexOf(shown) : -1
	const from = Math.max(0, at - 1)
	return available.slice(from, from + DAYS_LISTED)
}

// ---------------------------------------------------------------------------------------------
// The display zone: named in words, the likely ones first
// ---------------------------------------------------------------------------------------------

// Zones named in words cost an Intl formatter each: kept per zone and language.
const labels = new Map<string, string>()
function label(zone: string, language: string) {
	const key = `${zone}|${language}`
	let text = labels.get(key)
	if (text === undefined) {
		text = zoneLabel(zone, language)
		if (labels.size > 1000) labels.clear()
		labels.set(key, text)
	}
	return text
}

/** The zones people of a country (or, without one, of a language) most likely read times in. */
const REGION_ZONES: Record<string, string[]> = {
	US: [
		'America/New_York',
		'America/Chicago',
		'America/Denver',
		'America/Phoenix',
		'America/Los_Angeles',
		'America/Anchorage',
		'Pacific/Honolulu',
	],
	CA: ['America/Halifax', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'],
	MX: ['America/Mexico_City'],
	BR: ['America/Sao_Paulo'],
	AR: ['America/Argentina/Buenos_Aires'],
	CO: ['America/Bogota'],
	PE: ['America/Lima'],
	VE: ['America/Caracas'],
	CL: ['America/Santiago'],
	ES: ['Europe/Madrid'],
	PT: ['Europe/Lisbon', 'Atlantic/Azores'],
	GB: ['Europe/London'],
	FR: ['Europe/Paris'],
	DE: ['Europe/Berlin'],
	es: ['America/Mexico_City', 'Europe/Madrid', 'America/Bogota'],
	pt: ['America/Sao_Paulo', 'Europe/Lisbon'],
}

/** The zones guessed from an Accept-Language header, most preferred language first (at most eight). */
export function guessedZones(acceptLanguage: string | null): string[] {
	const tags = (acceptLanguage ?? '')
		.slice(0, 500)
		.split(',')
		.map((part, i) => {
			const [tag = '', ...params] = part.trim().split(';')
			const q = Number(
				params
					.find((p) => p.trim().startsWith('q='))
					?.trim()
					.slice(2) ?? 1,
			)
			return { tag, q: Number.isFinite(q) ? q : 0, i }
		})
		.filter((t) => t.tag && t.q > 0)
		.sort((a, b) => b.q - a.q || a.i - b.i)
	const zones: string[] = []
	for (const { tag } of tags) {
		const [lang = '', region] = tag.split('-')
		// Own keys only: a header naming "constructor" or "__proto__" finds nothing.
		const own = (key: string) => (Object.hasOwn(REGION_ZONES, key) ? REGION_ZONES[key] : undefined)
		const found = own(region?.toUpperCase() ?? '') ?? own(lang.toLowerCase()) ?? []
		for (const zone of found) if (!zones.includes(zone)) zones.push(zone)
	}
	return zones.slice(0, 8)
}

/**
 * The display zone's choices, every one a link (one tap, with or without JavaScript): the
 * organization's first, then the one shown, then those the visitor's languages suggest; the rest
 * apart, for a `<details>`.
 */
function zoneChoices(w: Wizard, tz: string, language: string, acceptLanguage: string | null) {
	const orgTz = w.catalogue.settings.timezone
	const choice = (zone: string) => ({
		zone,
		label: label(zone, language),
		org: zone === orgTz,
		current: zone === tz,
		link: stepUrl(w.org.slug, 'slot', { ...w.choices, tz: zone }),
	})
	const likely = [...new Set([orgTz, tz, ...guessedZones(acceptLanguage)])]
	return {
		label: label(tz, language),
		likely: likely.map(choice),
		others: DISPLAY_TIMEZONES.filter((z) => !likely.includes(z)).map(choice),
	}
}

export function slotView(w: Wizard, language: string, acceptLanguage: string | null = null) {
	const { org, choices, provider, catalogue } = w
	const orgTz = catalogue.settings.timezone
	const tz = choices.tz ?? orgTz
	const base: Choices = { service: choices.service, mode: choices.mode, tz: choices.tz, reschedule: choices.reschedule }
	const link = (step: 'slot' | 'details', extra: Partial<Choices>) => stepUrl(org.slug, step, { ...base, ...extra })
	const tabs = {
		provider: link('slot', { mode: 'provider', provider: choices.provider }),
		time: link('slot', { mode: 'time', start: choices.start }),
	}
	const zones = zoneChoices(w, tz, language, acceptLanguage)
	// The strip of days, the previous and next day with free time (arrows), and the shown day's heading.
	const dayList = (days: string[], current: string | undefined, extra: Partial<Choices>) => {
		const at = current ? days.indexOf(current) : -1
		const around = (i: number) => (at >= 0 && days[i] ? link('slot', { ...extra, date: days[i] }) : null)
		return {
			days: listedDays(days, current).map((date) => ({
				date,
				label: dayLabel(date, language),
				current: date === current,
				link: link('slot', { ...extra, date }),
			})),
			previous: around(at - 1),
			next: around(at + 1),
			heading: current ? dayHeading(current, language) : null,
		}
	}
	const page = choices.more ?? 1
	const movedFrom = w.reschedule ? dateIn(orgTz, new Date(w.reschedule.startsAt)) : undefined
	const availability = w.availability! // resolveWizard has one from the slot step on
	// The slots of the shown day only: the other days are asked only whether they have free time.
	const onDay = (date: string | undefined): AvailabilityDay[] => {
		const day = date === undefined ? undefined : availability.day(date)
		return day ? [day] : []
	}

	if (choices.mode === 'provider') {
		if (!provider) {
			return {
				mode: 'provider' as const,
				tz,
				zones,
				tabs,
				providers: catalogue.providers.map((p) => ({
					id: p.id,
					name: p.displayName,
					bio: p.bio,
					avatarUrl: p.avatarUrl,
					link: link('slot', { provider: p.id, date: choices.date }),
				})),
			}
		}
		const available = availability.freeDates(provider.id)
		const date = shownDay(available, choices.date, movedFrom)
		const all = slotsForProvider(onDay(date), provider.id)
		const shown = all.slice(0, PROVIDER_PAGE * page)
		return {
			mode: 'provider' as const,
			tz,
			zones,
			tabs,
			chosen: { name: provider.displayName, avatarUrl: provider.avatarUrl, change: link('slot', { date: choices.date }) },
			day: date,
			strip: dayList(available, date, { provider: provider.id }),
			slots: shown.map((s) => ({
				start: s.start,
				label: timeLabel(s, tz, orgTz, language),
				day: otherDay(s, tz, orgTz, language),
				selected: s.start === choices.start,
				link: link('details', { provider: provider.id, date, start: s.start }),
			})),
			more: all.length > shown.length ? link('slot', { provider: provider.id, date, more: page + 1 }) : null,
		}
	}

	if (!choices.start) {
		const available = availability.freeDates()
		const date = shownDay(available, choices.date, movedFrom)
		const all = slotsByTime(onDay(date))
		const shown = all.slice(0, TIME_PAGE * page)
		return {
			mode: 'time' as const,
			tz,
			zones,
			tabs,
			noProviders: catalogue.providers.length === 0,
			day: date,
			strip: dayList(available, date, {}),
			times: shown.map((s) => ({
				start: s.start,
				label: timeLabel(s, tz, orgTz, language),
				day: otherDay(s, tz, orgTz, language),
				count: s.count,
				// Time first: the provider chosen before, or the only one free then, goes on to the
				// details; with a choice of several, the next page offers them and "First available".
				link:
					provider && s.providerIds.includes(provider.id)
						? link('details', { provider: provider.id, date, start: s.start })
						: s.providerIds.length === 1
							? link('details', { provider: s.providerIds[0], date, start: s.start })
							: link('slot', { date, start: s.start }),
			})),
			more: all.length > shown.length ? link('slot', { date, more: page + 1 }) : null,
		}
	}
	const slot = availability.slotAt(choices.start)!
	const free = catalogue.providers.filter((p) => slot.providerIds.includes(p.id))
	return {
		mode: 'time' as const,
		tz,
		zones,
		tabs,
		chosenTime: { label: dayTimeLabel(slot, tz, orgTz, language), change: link('slot', { date: slot.date }) },
		// Several free: the first of them, for a visitor to whom any will do.
		firstAvailable: free.length > 1 ? link('details', { provider: free[0]!.id, date: slot.date, start: slot.start }) : null,
		free: free.map((p) => ({
			id: p.id,
			name: p.displayName,
			bio: p.bio,
			avatarUrl: p.avatarUrl,
			selected: p.id === choices.provider,
			link: link('details', { provider: p.id, date: slot.date, start: slot.start }),
		})),
	}
}
