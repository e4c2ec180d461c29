/**
 * Availability at the size the booking issue names: 20 providers, 60 days, 2,000 live
 * appointments (pending or confirmed, none overlapping per provider, as the exclusion constraint
 * guarantees), in America/New_York with a 10-minute buffer, a quarter of the providers on their
 * own hours and four date overrides. Measures `computeAvailability`
 * (app/lib/availability.ts) and what the wizard and the server do with it. Prints figures; not a
 * pass/fail test.
 *
 *   node_modules/.bin/tsx bench/availability.ts
 *   BENCH_RUNS=500 node_modules/.bin/tsx bench/availability.ts
 */
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import {
	availabilityOf,
	computeAvailability,
	daysWithSlots,
	DEFAULT_BUSINESS_HOURS,
	isSlotAvailable,
	slotsByTime,
	slotsForProvider,
	type AvailabilityInput,
	type BusyAppointment,
	type DateOverride,
	type WeeklyHours,
} from '../app/lib/availability.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 200)
const WARMUP = 20
const PROVIDERS = 20
const DAYS = 60
const APPOINTMENTS = 2_000
const TARGET_MS = 20
const TIMEZONE = 'America/New_York'
const NOW = new Date('2026-11-23T13:00:00Z') // Monday 08:00 in New York

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function prng(seed: number) {
	let a = seed >>> 0
	return () => {
		a = (a + 0x6d2b79f5) >>> 0
		let t = a
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

const random = prng(42)
const ids = Array.from({ length: PROVIDERS }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)
// A quarter of the providers keep their own, shorter hours.
const shortHours: WeeklyHours = {
	...DEFAULT_BUSINESS_HOURS,
	monday: { start: '10:00', end: '15:00', enabled: true },
	friday: { start: '09:00', end: '13:00', enabled: true },
}
const providers = ids.map((id, i) => ({ id, hours: i % 4 === 0 ? shortHours : null }))

// 2,000 appointments on weekdays between 09:00 and 17:00 local (EST, UTC-05:00 all period),
// 30, 45 or 60 minutes, each provider's appointments apart by their length plus the buffer.
const appointments: BusyAppointment[] = []
const taken = new Map<string, Array<[number, number]>>()
const dayZero = Date.UTC(2026, 10, 23) // 2026-11-23
while (appointments.length < APPOINTMENTS) {
	const day = Math.floor(random() * DAYS)
	const weekday = day % 7 // 0 is Monday
	if (weekday >= 5) continue
	const providerId = ids[Math.floor(random() * PROVIDERS)]!
	const length = [30, 45, 60][Math.floor(random() * 3)]!
	const startMinute = 9 * 60 + Math.floor(random() * ((8 * 60 - length) / 15)) * 15
	const startsAt = dayZero + day * 86_400_000 + (startMinute + 5 * 60) * 60_000
	const bufferEndsAt = startsAt + (length + 10) * 60_000
	const list = taken.get(providerId) ?? []
	if (list.some(([from, until]) => from < bufferEndsAt && startsAt < until)) continue
	list.push([startsAt, bufferEndsAt])
	taken.set(providerId, list)
	// Dates, as the pg driver returns timestamptz columns (and React Router's loaders keep them).
	appointments.push({
		providerId,
		startsAt: new Date(startsAt),
		endsAt: new Date(startsAt + length * 60_000),
		bufferEndsAt: new Date(bufferEndsAt),
		status: random() < 0.8 ? 'confirmed' : 'pending',
	})
}
const iso = (value: string | Date) => (typeof value === 'string' ? value : value.toISOString())
const appointmentsAsText = appointments.map((a) => ({
	...a,
	startsAt: iso(a.startsAt),
	endsAt: iso(a.endsAt),
	bufferEndsAt: iso(a.bufferEndsAt!),
}))

const overrides: DateOverride[] = [
	{ date: '2026-11-26', providerId: null, closed: true },
	{ date: '2026-12-24', providerId: null, closed: false, start: '09:00', end: '12:00' },
	{ date: '2026-12-01', providerId: ids[3]!, closed: true },
	{ date: '2026-12-02', providerId: ids[5]!, closed: false, start: '13:00', end: '17:00' },
]

const input = (durationMinutes: number): AvailabilityInput => ({
	now: NOW,
	timezone: TIMEZONE,
	settings: { minAdvanceHours: 2, maxAdvanceDays: DAYS, bufferMinutes: 10, businessHours: DEFAULT_BUSINESS_HOURS },
	service: { durationMinutes },
	providers,
	appointments,
	overrides,
	days: DAYS,
})

/**
 * Wall-clock and CPU milliseconds per call. On a shared machine the wall clock includes time
 * spent waiting for a core; the process CPU time does not (it includes the GC's threads).
 */
function measure(fn: () => unknown) {
	for (let i = 0; i < WARMUP; i++) fn()
	const wall: number[] = []
	const cpu: number[] = []
	for (let i = 0; i < RUNS; i++) {
		const cpuStart = process.cpuUsage()
		const start = performance.now()
		fn()
		wall.push(performance.now() - start)
		const used = process.cpuUsage(cpuStart)
		cpu.push((used.user + used.system) / 1000)
	}
	const at = (list: number[], q: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(q * list.length))]!
	return { p50: at(wall, 0.5), p95: at(wall, 0.95), max: Math.max(...wall), cpu50: at(cpu, 0.5), cpu95: at(cpu, 0.95) }
}

const rows: Array<ReturnType<typeof measure> & { name: string; target?: number }> = []
for (const duration of [30, 45, 15]) {
	rows.push({
		name: `computeAvailability, ${duration}-minute service`,
		...measure(() => computeAvailability(input(duration))),
		target: TARGET_MS,
	})
}
rows.push({
	name: 'computeAvailability, 30 min, ISO-string instants',
	...measure(() => computeAvailability({ ...input(30), appointments: appointmentsAsText })),
	target: TARGET_MS,
})
rows.push({
	name: 'every slot, then by provider (6) + by time (12) + days',
	...measure(() => {
		const days = computeAvailability(input(30))
		slotsForProvider(days, ids[7]!, 6)
		slotsByTime(days, 12)
		daysWithSlots(days)
	}),
	target: TARGET_MS,
})
// What the slot step does since decision 030: the day strip's free dates, the shown day's slots.
rows.push({
	name: 'wizard, by provider: free dates + one day',
	...measure(() => {
		const availability = availabilityOf(input(30))
		const first = availability.freeDates(ids[7]!)[0]!
		slotsForProvider([availability.day(first)!], ids[7]!, 6)
	}),
	target: TARGET_MS,
})
rows.push({
	name: 'wizard, by time: free dates + one day',
	...measure(() => {
		const availability = availabilityOf(input(30))
		const first = availability.freeDates()[0]!
		slotsByTime([availability.day(first)!], 12)
	}),
	target: TARGET_MS,
})
const sample = computeAvailability(input(30))
const someSlot = slotsForProvider(sample, ids[7]!, 40).at(-1)!
rows.push({
	name: 'isSlotAvailable (one start)',
	...measure(() => isSlotAvailable({ ...input(30), providerId: ids[7]!, start: someSlot.start })),
})

const slotCount = sample.reduce((n, d) => n + d.slots.length, 0)
const freePairs = sample.reduce((n, d) => n + d.slots.reduce((m, s) => m + s.providerIds.length, 0), 0)
console.log(`${PROVIDERS} providers, ${DAYS} days, ${appointments.length} appointments, ${RUNS} runs after ${WARMUP} warm-up`)
console.log(`30-minute service: ${slotCount} slots, ${freePairs} free (slot, provider) pairs of ${slotCount * PROVIDERS}\n`)
const width = Math.max(...rows.map((r) => r.name.length))
console.log(`${'measure'.padEnd(width)} | p50 ms | p95 ms | max ms | cpu p50 | cpu p95 | target p95`)
console.log(`${'-'.repeat(width)}-|--------|--------|--------|---------|---------|-----------`)
const ms = (n: number, w = 6) => n.toFixed(2).padStart(w)
for (const r of rows) {
	const verdict = r.target === undefined ? '—' : `${r.target} ms ${r.p95 <= r.target ? 'ok' : 'MISSED'}`
	console.log(`${r.name.padEnd(width)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ${ms(r.cpu50, 7)} | ${ms(r.cpu95, 7)} | ${verdict}`)
}
console.log(
	`\nload average ${loadavg()
		.map((n) => n.toFixed(1))
		.join(' ')} on ${cpus().length} cores`,
)
