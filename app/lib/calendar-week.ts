/**
 * The staff calendar's week grid (docs/product.md, Booking) as plain numbers: the hours its rows
 * span, and where each appointment's block sits in its day's column. Pure and free of timezones
 * (it reads the wall-clock times the database derived in the organization's zone), so the server
 * works it out once per page and tests/unit/calendar-week.test.ts holds it, DST days included.
 */

/** The shortest block drawn, in minutes: a 5-minute appointment still gets a line of text. */
export const MIN_BLOCK_MINUTES = 20

/** The rows a week without business hours or appointments shows: 09:00 to 17:00. */
const FALLBACK = { from: 9 * 60, to: 17 * 60 }

const DAY_MINUTES = 24 * 60

/** Minutes after local midnight of a wall-clock time "HH:MM" ("24:00" is 1440); 0 for text that is not one. */
export function clockMinutes(time: string) {
	const match = /^(\d{2}):(\d{2})/.exec(time)
	if (!match) return 0
	return Math.min(Number(match[1]) * 60 + Number(match[2]), DAY_MINUTES)
}

/**
 * The wall-clock minutes of its day an appointment covers: from its start to its end, or, when
 * the end does not read later (the clocks went back meanwhile, or it ends after midnight), its
 * real length from its start, cut at midnight. So a block lines up with the times it shows on
 * an ordinary day and on the day the clocks go forward (01:30–03:30 over the hour that does not
 * exist), and still has its length on the day they go back (01:30 EDT–01:15 EST).
 */
export function blockSpan(startTime: string, endTime: string, minutes: number) {
	const from = clockMinutes(startTime)
	const end = clockMinutes(endTime)
	const to = end > from ? end : from + Math.max(minutes, 0)
	return { from, to: Math.min(to, DAY_MINUTES) }
}

/**
 * The span a block is drawn over: at least MIN_BLOCK_MINUTES long, moved up when that would pass
 * midnight.
 */
function drawnSpan(span: { from: number; to: number }) {
	const to = Math.min(Math.max(span.to, span.from + MIN_BLOCK_MINUTES), DAY_MINUTES)
	return { from: Math.min(span.from, to - MIN_BLOCK_MINUTES), to }
}

/**
 * The grid's rows, in minutes after midnight on whole hours: from the earliest opening of the
 * week's open days to the latest closing, widened to hold every block; 09:00–17:00 when there is
 * neither. Hours are "HH:MM" texts (closing may be "24:00").
 */
export function gridRange(hours: { start: string; end: string }[], spans: { from: number; to: number }[]) {
	const starts = [...hours.map((h) => clockMinutes(h.start)), ...spans.map((s) => drawnSpan(s).from)]
	const ends = [...hours.map((h) => clockMinutes(h.end)), ...spans.map((s) => drawnSpan(s).to)]
	if (starts.length === 0) return { ...FALLBACK }
	const from = Math.floor(Math.min(...starts) / 60) * 60
	const to = Math.ceil(Math.max(...ends) / 60) * 60
	return to > from ? { from, to } : { from, to: Math.min(from + 60, DAY_MINUTES) }
}

export type PlacedBlock = {
	/** Offset from the grid's top and height, in percent of the grid's height. */
	top: number
	height: number
	/** Overlapping blocks sit side by side: this block's lane among its group's `lanes`. */
	lane: number
	lanes: number
}

/**
 * Where each of one day's blocks sits in a grid spanning `range`, in the order given: top and
 * height in percent, and a lane among the blocks it overlaps (directly or through others), so
 * two appointments at the same time (two providers, or the 01:30 that happens twice) are side by
 * side instead of one over the other.
 */
export function placeBlocks(spans: { from: number; to: number }[], range: { from: number; to: number }): PlacedBlock[] {
	const length = Math.max(range.to - range.from, 1)
	const drawn = spans.map(drawnSpan)
	const placed = drawn.map((s) => ({
		top: ((Math.max(s.from, range.from) - range.from) / length) * 100,
		height: ((Math.min(s.to, range.to) - Math.max(s.from, range.from)) / length) * 100,
		lane: 0,
		lanes: 1,
	}))
	const order = drawn.map((_, i) => i).sort((a, b) => drawn[a]!.from - drawn[b]!.from || drawn[a]!.to - drawn[b]!.to || a - b)
	// Groups of blocks that overlap one another; in each, a block takes the first lane free at its start.
	let group: number[] = []
	let laneEnds: number[] = []
	let groupEnd = -1
	const close = () => {
		for (const i of group) placed[i]!.lanes = laneEnds.length
		group = []
		laneEnds = []
	}
	for (const i of order) {
		const s = drawn[i]!
		if (s.from >= groupEnd) close()
		groupEnd = Math.max(groupEnd, s.to)
		let lane = laneEnds.findIndex((end) => end <= s.from)
		if (lane === -1) lane = laneEnds.push(s.to) - 1
		else laneEnds[lane] = s.to
		placed[i]!.lane = lane
		group.push(i)
	}
	close()
	return placed
}

/**
 * The calendar's query for a day, in the week view or the day view, keeping the provider filter:
 * every link and form of the calendar builds its address here, so a filter is never dropped on
 * the way to another day or view.
 */
export function calendarQuery({ week = false, day, provider }: { week?: boolean; day: string; provider?: string | null }) {
	return `?${week ? 'view=week&' : ''}day=${day}${provider ? `&provider=${encodeURIComponent(provider)}` : ''}`
}
