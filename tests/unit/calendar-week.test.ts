import { describe, expect, test } from 'vitest'
import { blockSpan, calendarQuery, clockMinutes, gridRange, MIN_BLOCK_MINUTES, placeBlocks } from '#app/lib/calendar-week.ts'
import { dateTimeIn } from '#app/lib/dates.ts'

/** The wall-clock span an appointment of these instants covers in New York, as the calendar reads it from the database. */
function spanIn(timezone: string, startsAt: string, endsAt: string) {
	const start = dateTimeIn(timezone, new Date(startsAt))
	const end = dateTimeIn(timezone, new Date(endsAt))
	return { date: start.date, ...blockSpan(start.time, end.time, (Date.parse(endsAt) - Date.parse(startsAt)) / 60_000) }
}

describe('a block covers the wall-clock times it shows', () => {
	test('on an ordinary day, from its start to its end', () => {
		expect(blockSpan('09:00', '09:30', 30)).toEqual({ from: 540, to: 570 })
		expect(clockMinutes('24:00')).toBe(1440)
	})

	test('across midnight, up to the end of its day', () => {
		expect(blockSpan('23:30', '00:30', 60)).toEqual({ from: 1410, to: 1440 })
	})

	test('on the day the clocks go forward, over the hour that does not exist, lined up with its labels', () => {
		// 2027-03-14 in New York: 02:00 EST becomes 03:00 EDT. One real hour, 01:30 to 03:30 on the wall.
		expect(spanIn('America/New_York', '2027-03-14T06:30:00Z', '2027-03-14T07:30:00Z')).toEqual({ date: '2027-03-14', from: 90, to: 210 })
		// The next appointment starts where that one ends.
		expect(spanIn('America/New_York', '2027-03-14T07:30:00Z', '2027-03-14T08:00:00Z')).toEqual({ date: '2027-03-14', from: 210, to: 240 })
	})

	test('on the day the clocks go back, an end that reads earlier than its start keeps the real length', () => {
		// 2026-11-01 in New York: 02:00 EDT becomes 01:00 EST. 01:30 EDT to 01:15 EST is 45 minutes.
		expect(spanIn('America/New_York', '2026-11-01T05:30:00Z', '2026-11-01T06:15:00Z')).toEqual({ date: '2026-11-01', from: 90, to: 135 })
		// 01:00 EDT to 01:00 EST: an hour, not nothing.
		expect(spanIn('America/New_York', '2026-11-01T05:00:00Z', '2026-11-01T06:00:00Z')).toEqual({ date: '2026-11-01', from: 60, to: 120 })
	})
})

describe('the rows of the week', () => {
	const nineToFive = [{ start: '09:00', end: '17:00' }]

	test('span the business hours, on whole hours', () => {
		expect(
			gridRange(
				[
					{ start: '09:30', end: '17:00' },
					{ start: '10:00', end: '18:15' },
				],
				[],
			),
		).toEqual({ from: 540, to: 1140 })
		expect(gridRange([{ start: '00:00', end: '24:00' }], [])).toEqual({ from: 0, to: 1440 })
	})

	test('widen to hold an appointment outside them', () => {
		expect(gridRange(nineToFive, [{ from: 450, to: 480 }])).toEqual({ from: 420, to: 1020 })
		expect(gridRange(nineToFive, [{ from: 1030, to: 1060 }])).toEqual({ from: 540, to: 1080 })
		// A block is drawn at least MIN_BLOCK_MINUTES long, and the rows hold what is drawn.
		expect(gridRange(nineToFive, [{ from: 1435, to: 1440 }])).toEqual({ from: 540, to: 1440 })
	})

	test('are 09:00 to 17:00 for a week with neither', () => {
		expect(gridRange([], [])).toEqual({ from: 540, to: 1020 })
	})

	test('are the appointments’ hours when no day is open', () => {
		expect(gridRange([], [{ from: 600, to: 630 }])).toEqual({ from: 600, to: 660 })
	})
})

describe('blocks in a day column', () => {
	const range = { from: 480, to: 1080 } // 08:00 to 18:00: 600 minutes

	test('sit at their start, as tall as their length, in percent of the column', () => {
		const [block] = placeBlocks([{ from: 540, to: 600 }], range)
		expect(block).toEqual({ top: 10, height: 10, lane: 0, lanes: 1 })
	})

	test('a short one is still drawn MIN_BLOCK_MINUTES tall, and one at midnight moved up to fit', () => {
		const [short] = placeBlocks([{ from: 540, to: 545 }], range)
		expect(short!.height).toBeCloseTo((MIN_BLOCK_MINUTES / 600) * 100)
		const [late] = placeBlocks([{ from: 1435, to: 1440 }], { from: 1380, to: 1440 })
		expect(late!.top + late!.height).toBeCloseTo(100)
		expect(late!.height).toBeCloseTo((MIN_BLOCK_MINUTES / 60) * 100)
	})

	test('two at the same time sit side by side; one after them has the whole width again', () => {
		const placed = placeBlocks(
			[
				{ from: 540, to: 570 },
				{ from: 540, to: 570 },
				{ from: 570, to: 600 },
			],
			range,
		)
		expect(placed.map((p) => [p.lane, p.lanes])).toEqual([
			[0, 2],
			[1, 2],
			[0, 1],
		])
	})

	test('a chain of overlaps shares its lanes, a free lane taken again', () => {
		// C 10:00–10:30, A 09:00–10:00, B 09:30–10:30 (out of order): C overlaps B only and takes A’s lane.
		const placed = placeBlocks(
			[
				{ from: 600, to: 630 },
				{ from: 540, to: 600 },
				{ from: 570, to: 630 },
			],
			range,
		)
		expect(placed.map((p) => [p.lane, p.lanes])).toEqual([
			[0, 2],
			[0, 2],
			[1, 2],
		])
	})

	test('the 01:30 that happens twice on the day the clocks go back: two blocks side by side', () => {
		const first = spanIn('America/New_York', '2026-11-01T05:30:00Z', '2026-11-01T06:00:00Z')
		const second = spanIn('America/New_York', '2026-11-01T06:30:00Z', '2026-11-01T07:00:00Z')
		const placed = placeBlocks([first, second], gridRange([], [first, second]))
		expect(placed[0]!.top).toBe(placed[1]!.top)
		expect(placed.map((p) => [p.lane, p.lanes])).toEqual([
			[0, 2],
			[1, 2],
		])
	})
})

test('every calendar address keeps the view and the provider filter', () => {
	expect(calendarQuery({ day: '2026-11-30' })).toBe('?day=2026-11-30')
	expect(calendarQuery({ week: true, day: '2026-11-30', provider: 'a b' })).toBe('?view=week&day=2026-11-30&provider=a%20b')
})
