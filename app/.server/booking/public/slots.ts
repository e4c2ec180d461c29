/**
 * The slot step's view (docs/product.md, Public booking): what the by-provider and by-time tabs
 * show for the chosen service, in the display timezone, with every choice a plain link.
 */
import { slotsByTime, slotsForProvider, type AvailabilityDay, type Slot } from '#app/lib/availability.ts'
import { dateIn } from '#app/lib/dates.ts'
import { stepUrl, type Choices } from './choices.ts'
import type { Wizard } from './wizard.ts'

export const PROVIDER_PAGE = 6
export const TIME_PAGE = 12

// Building an Intl formatter costs far more than using one: one per language and zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(kind: 'time' | 'day', language: string, timeZone: string) {
	const key = `${kind}|${language}|${timeZone}`
	let f = formatters.get(key)
	if (!f) {
		f = new Intl.DateTimeFormat(
			language,
			kind === 'time'
				? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }
				: { weekday: 'short', day: 'numeric', month: 'short', timeZone },
		)
		if (formatters.size > 500) formatters.clear()
		formatters.set(key, f)
	}
	return f
}

function timeLabel(slot: Slot, tz: string, orgTz: string, language: string) {
	if (tz === orgTz) return slot.label
	return formatter('time', language, tz).format(new Date(slot.start))
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
	if (tz === orgTz) return `${dayLabel(slot.date, language)} ${slot.label}`
	const instant = new Date(slot.start)
	return `${dayLabel(dateIn(tz, instant), language)} ${formatter('time', language, tz).format(instant)}`
}

function dayLabel(date: string, language: string) {
	return formatter('day', language, 'UTC').format(new Date(`${date}T12:00:00Z`))
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

/** The day strip: the first days with free time, moved along so that the shown day is on it. */
function listedDays(available: string[], shown: string | undefined) {
	const at = shown ? available.indexOf(shown) : -1
	const from = at >= DAYS_LISTED ? at - DAYS_LISTED + 1 : 0
	return available.slice(from, from + DAYS_LISTED)
}

export function slotView(w: Wizard, language: string) {
	const { org, choices, provider, catalogue } = w
	const orgTz = catalogue.settings.timezone
	const tz = choices.tz ?? orgTz
	const base: Choices = { service: choices.service, mode: choices.mode, tz: choices.tz, reschedule: choices.reschedule }
	const link = (step: 'slot' | 'details', extra: Partial<Choices>) => stepUrl(org.slug, step, { ...base, ...extra })
	const tabs = {
		provider: link('slot', { mode: 'provider', provider: choices.provider }),
		time: link('slot', { mode: 'time', start: choices.start }),
	}
	const dayList = (days: string[], current: string | undefined, extra: Partial<Choices>) =>
		listedDays(days, current).map((date) => ({
			date,
			label: dayLabel(date, language),
			current: date === current,
			link: link('slot', { ...extra, date }),
		}))
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
				orgTz,
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
			orgTz,
			tabs,
			chosen: { name: provider.displayName, avatarUrl: provider.avatarUrl, change: link('slot', { date: choices.date }) },
			day: date,
			days: dayList(available, date, { provider: provider.id }),
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
			orgTz,
			tabs,
			noProviders: catalogue.providers.length === 0,
			day: date,
			days: dayList(available, date, {}),
			times: shown.map((s) => ({
				start: s.start,
				label: timeLabel(s, tz, orgTz, language),
				day: otherDay(s, tz, orgTz, language),
				count: s.count,
				link:
					provider && s.providerIds.includes(provider.id)
						? link('details', { provider: provider.id, date, start: s.start })
						: link('slot', { date, start: s.start }),
			})),
			more: all.length > shown.length ? link('slot', { date, more: page + 1 }) : null,
		}
	}
	const slot = availability.slotAt(choices.start)!
	return {
		mode: 'time' as const,
		tz,
		orgTz,
		tabs,
		chosenTime: { label: dayTimeLabel(slot, tz, orgTz, language), change: link('slot', { date: slot.date }) },
		free: catalogue.providers
			.filter((p) => slot.providerIds.includes(p.id))
			.map((p) => ({
				id: p.id,
				name: p.displayName,
				bio: p.bio,
				avatarUrl: p.avatarUrl,
				selected: p.id === choices.provider,
				link: link('details', { provider: p.id, date: slot.date, start: slot.start }),
			})),
	}
}
