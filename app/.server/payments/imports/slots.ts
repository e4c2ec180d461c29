/**
 * How many file imports this server process reads at once, across organizations (each
 * organization has one at a time already: the database claim, docs/decisions/016-imports.md).
 * Reading a file holds its text and the garbage of parsing it; two at once keep the process's
 * memory and CPU bounded, a few more wait their turn, and past that an upload is refused with
 * "the server is busy" rather than queued without end.
 */
const RUNNING_MAX = 2
const WAITING_MAX = 8

let running = 0
const waiting: Array<() => void> = []

export const SERVER_BUSY = Symbol('server busy')

/** Runs `fn` in one of the process's import slots, waiting for one if need be; SERVER_BUSY when too many wait already. */
export async function withImportSlot<T>(fn: () => Promise<T>): Promise<T | typeof SERVER_BUSY> {
	if (running >= RUNNING_MAX) {
		if (waiting.length >= WAITING_MAX) return SERVER_BUSY
		await new Promise<void>((resolve) => waiting.push(resolve))
	} else {
		running++
	}
	try {
		return await fn()
	} finally {
		// The slot goes straight to the next in line (running stays the same), else it is freed.
		const next = waiting.shift()
		if (next) next()
		else running--
	}
}
