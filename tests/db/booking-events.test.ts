/**
 * The calendar's live refresh stream (docs/security.md, Live refresh), through its route
 * handler with a real session cookie: it tells of changes while its viewer may watch, and ends
 * once the session or the member's access to the booking module does, within the recheck
 * interval (here BOOKING_STREAM_RECHECK_MS = 200 ms; a minute in production).
 */
import { RouterContextProvider } from 'react-router'
import { afterEach, describe, expect, test } from 'vitest'
import { localSessionHeaders, readLocalToken } from '#app/.server/auth/port.ts'
import { requireSignedInMember } from '#app/.server/auth/session.ts'
import { MAX_STREAMS_PER_USER, notifyBookingChange } from '#app/.server/booking/live-updates.ts'
import { memberContext } from '#app/.server/context.ts'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { revokeOtherSessions } from '#app/.server/auth/local.ts'
import { loader } from '#app/routes/app/booking/events.ts'
import { addMember, CATALOGUE, createUser } from './fixtures.ts'
import { useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()
const RECHECK_MS = 200
process.env.BOOKING_STREAM_RECHECK_MS = String(RECHECK_MS)

/** A signed-in browser of the user: the session cookie the sign-in form sets, and its raw token. */
async function signIn(userId: string) {
	const headers = await localSessionHeaders(userId, { ip: '127.0.0.1', userAgent: 'vitest' })
	const cookie = headers.get('set-cookie')!.split(';')[0]!
	const token = (await readLocalToken(new Request('http://localhost/', { headers: { cookie } })))!
	return { cookie, token }
}

type Stream = {
	status: number
	/** The next event or comment block, 'ended' once the stream ended, 'timeout' when nothing came within `withinMs`. */
	next: (withinMs?: number) => Promise<string>
	close: () => void
	/** When (Date.now()) the stream ended. */
	closed: Promise<number>
}
const open: Stream[] = []

afterEach(() => {
	for (const stream of open.splice(0)) stream.close()
})

/**
 * GET /app/booking/events as that browser, in `organizationId` (the current-organization
 * cookie's choice): the /app layout's guard (the signed-in member), then the route's loader.
 * The body is read in the background into a queue of blocks.
 */
async function openStream(cookie: string, organizationId?: string): Promise<Stream> {
	const abort = new AbortController()
	const request = new Request('http://localhost/app/booking/events', { headers: { cookie }, signal: abort.signal })
	const { member } = await requireSignedInMember(request, organizationId)
	const context = new RouterContextProvider()
	context.set(memberContext, member)
	const response = await loader({ request, context, params: {} } as never)
	const blocks: string[] = []
	let wake = () => {}
	let endedAt: number | null = null
	let resolveClosed = (_at: number) => {}
	const closed = new Promise<number>((resolve) => (resolveClosed = resolve))
	const reader = response.body?.getReader()
	void (async () => {
		const decoder = new TextDecoder()
		let buffer = ''
		for (;;) {
			const read = reader
				? await reader.read().catch(() => ({ done: true as const, value: undefined }))
				: { done: true as const, value: undefined }
			if (read.done) break
			buffer += decoder.decode(read.value, { stream: true })
			for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
				blocks.push(buffer.slice(0, end))
				buffer = buffer.slice(end + 2)
			}
			wake()
		}
		endedAt = Date.now()
		resolveClosed(endedAt)
		wake()
	})()
	const next = async (withinMs = 5_000): Promise<string> => {
		const deadline = Date.now() + withinMs
		for (;;) {
			if (blocks.length) return blocks.shift()!
			if (endedAt !== null) return 'ended'
			const left = deadline - Date.now()
			if (left <= 0) return 'timeout'
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, left)
				wake = () => {
					clearTimeout(timer)
					resolve()
				}
			})
		}
	}
	const stream: Stream = {
		status: response.status,
		next,
		close: () => {
			abort.abort()
			void reader?.cancel().catch(() => undefined)
		},
		closed,
	}
	open.push(stream)
	return stream
}

/** The stream's events (without comments) until it ends or `withinMs` passes with nothing. */
async function eventsUntilEnd(stream: Stream, withinMs: number) {
	const seen: string[] = []
	for (;;) {
		const block = await stream.next(withinMs)
		if (block === 'ended' || block === 'timeout') return { seen, ended: block === 'ended' }
		if (!block.startsWith(':')) seen.push(block)
	}
}

async function bookingOrganization(name: string) {
	const owner = await createUser(name)
	await asSystem((trx) =>
		trx.insertInto('organization_modules').values({ organization_id: owner.orgId, module_id: CATALOGUE.modules.booking }).execute(),
	)
	return owner
}

describe('the calendar event stream', () => {
	test('tells of a change, and ends within the recheck interval after "sign out everywhere else"', async () => {
		const owner = await bookingOrganization('Stream Owner')
		const laptop = await signIn(owner.userId)
		const phone = await signIn(owner.userId)
		const stream = await openStream(laptop.cookie)
		expect(stream.status).toBe(200)
		expect(await stream.next()).toBe('retry: 3000')
		notifyBookingChange(owner.orgId)
		expect(await stream.next()).toBe('event: change\ndata: {}')
		// Still there after a few rechecks.
		await new Promise((resolve) => setTimeout(resolve, RECHECK_MS * 3))
		notifyBookingChange(owner.orgId)
		expect(await stream.next()).toBe('event: change\ndata: {}')
		// From the phone: "Sign out everywhere else" ends the laptop's session, and with it its stream.
		const signedOut = Date.now()
		expect(await revokeOtherSessions(owner.userId, phone.token)).toBe(1)
		expect(await eventsUntilEnd(stream, 5_000)).toEqual({ seen: [], ended: true })
		expect((await stream.closed) - signedOut).toBeLessThan(RECHECK_MS * 10)
	})

	test('a change told after the session ended is not delivered: the stream ends instead', async () => {
		process.env.BOOKING_STREAM_RECHECK_MS = '60000'
		try {
			const owner = await bookingOrganization('Stream Event')
			const browser = await signIn(owner.userId)
			const stream = await openStream(browser.cookie)
			expect(await stream.next()).toBe('retry: 3000')
			await asSystem((trx) => trx.deleteFrom('auth.sessions').where('user_id', '=', owner.userId).execute())
			notifyBookingChange(owner.orgId)
			expect(await eventsUntilEnd(stream, 5_000)).toEqual({ seen: [], ended: true })
		} finally {
			process.env.BOOKING_STREAM_RECHECK_MS = String(RECHECK_MS)
		}
	})

	test("a member's stream ends when they are removed, and another's when the module becomes owners-only", async () => {
		const owner = await bookingOrganization('Stream Team')
		const removed = await createUser('Stream Removed')
		const member = await createUser('Stream Member')
		await addMember(owner.orgId, removed.userId, 'manager')
		await addMember(owner.orgId, member.userId, 'member')
		const ownerStream = await openStream((await signIn(owner.userId)).cookie)
		// Each in the owner's organization (their own, made at sign-up, comes first otherwise).
		const removedStream = await openStream((await signIn(removed.userId)).cookie, owner.orgId)
		const memberStream = await openStream((await signIn(member.userId)).cookie, owner.orgId)
		for (const stream of [ownerStream, removedStream, memberStream]) expect(await stream.next()).toBe('retry: 3000')

		await asSystem((trx) =>
			trx.deleteFrom('organization_members').where('organization_id', '=', owner.orgId).where('user_id', '=', removed.userId).execute(),
		)
		expect(await eventsUntilEnd(removedStream, 5_000)).toEqual({ seen: [], ended: true })

		await asSystem((trx) =>
			sql`update public.organization_modules set default_visibility = 'owner' where organization_id = ${owner.orgId} and module_id = ${CATALOGUE.modules.booking}`.execute(
				trx,
			),
		)
		expect(await eventsUntilEnd(memberStream, 5_000)).toEqual({ seen: [], ended: true })
		// The owner may still watch, and hears of the next change.
		notifyBookingChange(owner.orgId)
		expect(await ownerStream.next()).toBe('event: change\ndata: {}')
	})

	test(`a user holds at most ${MAX_STREAMS_PER_USER} open streams: the next is refused with 429 until one closes`, async () => {
		const owner = await bookingOrganization('Stream Tabs')
		const browser = await signIn(owner.userId)
		const tabs: Stream[] = []
		for (let i = 0; i < MAX_STREAMS_PER_USER; i++) tabs.push(await openStream(browser.cookie))
		expect(tabs.map((t) => t.status)).toEqual(Array(MAX_STREAMS_PER_USER).fill(200))
		expect((await openStream(browser.cookie)).status).toBe(429)
		// Another user is not held back by this one's tabs.
		const other = await bookingOrganization('Stream Other')
		expect((await openStream((await signIn(other.userId)).cookie)).status).toBe(200)
		tabs[0]!.close()
		await tabs[0]!.closed
		expect((await openStream(browser.cookie)).status).toBe(200)
	})
})
