/**
 * Reads that many requests share, kept for a moment (docs/decisions/024-public-booking-reads.md):
 * the public booking pages' catalogue and busy times, which every visitor of an organization
 * reads alike and which change rarely.
 *
 * An entry is dropped when it is `ttlMs` old, and every entry is dropped by `forgetSharedReads`:
 * - around every request of this process that may write (a root middleware: before, and after
 *   its work has committed);
 * - on the PostgreSQL server, when any instance (or any SQL) changes what the public pages show:
 *   triggers NOTIFY channel `public_booking_changes`
 *   (supabase/migrations/20261126000000_public_booking_changes.sql).
 * A read that was under way when they were forgotten is handed to the requests that waited for it
 * but not kept, since it may have started before the write committed. Until the LISTEN is up, and
 * after it drops, nothing is kept at all.
 */
import { listenToChannel } from './index.ts'

type Entry<V> = { value: Promise<V>; expires: number }

export type SharedReads<V> = {
	/** The kept value of `key`, or `read()`'s, which concurrent callers of the same key share. */
	get(key: string, read: () => Promise<V>): Promise<V>
}

const CHANNEL = 'public_booking_changes'
const RETRY_MS = 5_000

let generation = 0
const caches = new Set<Map<string, Entry<unknown>>>()

/** Drops every kept read, and keeps none of those under way. */
export function forgetSharedReads() {
	generation++
	for (const entries of caches) entries.clear()
}

/**
 * Root middleware: a request that may write (anything but GET and HEAD) forgets the kept reads
 * before it starts, and again once its work has committed, so that no read made meanwhile stays.
 */
export async function forgetReadsOnWrite({ request }: { request: Request }, next: () => Promise<Response>) {
	if (request.method === 'GET' || request.method === 'HEAD') return next()
	forgetSharedReads()
	try {
		return await next()
	} finally {
		forgetSharedReads()
	}
}

/**
 * 'embedded': one process writes, and the middleware sees all its writes. 'listening': the
 * PostgreSQL server's changes reach this process. Anything else keeps nothing.
 */
let state: 'unknown' | 'starting' | 'embedded' | 'listening' | 'waiting' = 'unknown'

function startListening() {
	state = 'starting'
	listenToChannel(CHANNEL, forgetSharedReads, () => {
		// The connection ended: what changed meanwhile is unknown.
		forgetSharedReads()
		state = 'unknown'
	})
		.then((stop) => {
			state = stop ? 'listening' : 'embedded'
		})
		.catch(() => {
			state = 'waiting'
			setTimeout(() => (state = 'unknown'), RETRY_MS).unref()
		})
}

function ready() {
	if (state === 'unknown') startListening()
	return state === 'embedded' || state === 'listening'
}

export function sharedReads<V>({ ttlMs, max }: { ttlMs: number; max: number }): SharedReads<V> {
	const entries = new Map<string, Entry<V>>()
	caches.add(entries as Map<string, Entry<unknown>>)
	const drop = (key: string, value: Promise<V>) => {
		if (entries.get(key)?.value === value) entries.delete(key)
	}
	return {
		get(key, read) {
			if (ttlMs <= 0 || !ready()) return read()
			const now = Date.now()
			const kept = entries.get(key)
			if (kept && kept.expires > now) return kept.value
			const started = generation
			const value = read().then(deepFreeze)
			entries.delete(key)
			entries.set(key, { value, expires: now + ttlMs })
			// The oldest entry goes first (a Map iterates in insertion order).
			if (entries.size > max) entries.delete(entries.keys().next().value!)
			value.then(
				() => {
					if (generation !== started) drop(key, value)
				},
				() => drop(key, value),
			)
			return value
		},
	}
}

/** A kept value is shared by every request: frozen, so that no request can change another's. */
function deepFreeze<V>(value: V): V {
	if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
		Object.freeze(value)
		for (const inner of Object.values(value)) deepFreeze(inner)
	}
	return value
}
