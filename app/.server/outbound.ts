/**
 * The outbound policy (docs/security.md, Outbound connections): every connection this server
 * opens to a host outside itself (an IMAP mailbox, the Gmail API and Google's token endpoint, the
 * SMTP relay; outgoing webhooks later) has
 *
 * - an overall deadline, not only an idle timeout: a peer that trickles a byte now and then
 *   cannot hold a request, a sync run or the scheduler longer than the deadline;
 * - a cap on what it reads: a peer that announces or sends more than the caller needs is cut off
 *   before it costs the server its memory;
 * - when the host comes from a user (the IMAP form), an address check: the name is resolved ONCE,
 *   every address it gives must be a public unicast one (no loopback, private, link-local, CGNAT,
 *   multicast, unspecified, reserved, documentation ranges, also when spelled as IPv4-mapped,
 *   NAT64 or 6to4 IPv6), and the connection goes to the address that was checked, so a second
 *   lookup cannot give another answer (DNS rebinding). A refused host is refused before any
 *   packet is sent to it.
 *
 * The limits of each kind of connection are in OUTBOUND, in one place.
 */
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'

const KiB = 1024
const MiB = 1024 * KiB

export const OUTBOUND = {
	/**
	 * Logging in to a mailbox to check it (the connect form, Refresh Status): an answer within
	 * 20 s whatever the server does. The caps fit a greeting, a capability list and a login.
	 */
	imapCheck: {
		deadlineMs: 20_000,
		lookupMs: 5_000,
		connectionTimeout: 8_000,
		greetingTimeout: 8_000,
		socketTimeout: 10_000,
		maxLineLength: 64 * KiB,
		maxLiteralSize: 64 * KiB,
		maxResponseSize: 256 * KiB,
		maxResponseTokens: 10_000,
	},
	/**
	 * Reading a mailbox for the email sync. A payment notice is a few hundred KB at most: larger
	 * messages are skipped by their announced size (RFC822.SIZE) and listed; a literal past twice
	 * that size is a server sending more than it announced, and ends the connection. A run stops
	 * at its time budget (`deadlineMs` by trigger) or its byte budget and goes on next time.
	 */
	imapSync: {
		deadlineMs: { button: 45_000, schedule: 150_000 },
		runBytes: 256 * MiB,
		lookupMs: 5_000,
		connectionTimeout: 8_000,
		greetingTimeout: 8_000,
		socketTimeout: 30_000,
		maxMessageBytes: 2 * MiB,
		maxLineLength: 1 * MiB,
		maxLiteralSize: 4 * MiB,
		maxResponseSize: 5 * MiB,
		maxResponseTokens: 50_000,
		/** A FETCH of message sources asks for at most this many messages and announced bytes. */
		fetchBatchMessages: 100,
		fetchBatchBytes: 4 * MiB,
		/** UIDs searched per SEARCH: its answer stays far below maxLineLength, whatever the mailbox's size. */
		uidWindow: 10_000,
	},
	/** The Gmail API and Google's token endpoint: each call has a deadline and a response cap. */
	google: {
		timeoutMs: 15_000,
		/** Refresh Status of a Gmail connection (a token refresh, then the profile): 20 s in all, like the IMAP check. */
		checkMs: 20_000,
		/** Tokens, the profile, a page of message ids, a message's metadata. */
		maxBytes: 256 * KiB,
		/** A message as format=raw: base64url of up to imapSync.maxMessageBytes, plus the JSON around it. */
		maxMessageResponseBytes: Math.ceil((2 * MiB * 4) / 3) + 64 * KiB,
	},
	/** The SMTP relay (SMTP_URL): one message may take this long in all. */
	smtp: {
		deadlineMs: 30_000,
		connectionTimeout: 10_000,
		greetingTimeout: 10_000,
		socketTimeout: 20_000,
		dnsTimeout: 5_000,
		maxResponseSize: 64 * KiB,
	},
} as const

export type OutboundFailure = 'refused' | 'unresolved' | 'timeout' | 'too_large' | 'unreachable' | 'invalid'

/** Why an outbound call did not happen or did not finish; `reason` is for the caller's own codes, never shown raw. */
export class OutboundError extends Error {
	constructor(
		readonly reason: OutboundFailure,
		message: string = reason,
		options?: { cause?: unknown },
	) {
		super(`outbound: ${message}`, options)
		this.name = 'OutboundError'
	}
}

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

/** IPv4 ranges no connection of a user's choosing may reach: [first address, prefix length]. */
const REFUSED_V4: Array<[string, number]> = [
	['0.0.0.0', 8], // "this network", the unspecified address
	['10.0.0.0', 8], // private
	['100.64.0.0', 10], // carrier-grade NAT (shared address space)
	['127.0.0.0', 8], // loopback
	['169.254.0.0', 16], // link-local (cloud metadata services live here)
	['172.16.0.0', 12], // private
	['192.0.0.0', 24], // IETF protocol assignments
	['192.0.2.0', 24], // documentation (TEST-NET-1)
	['192.88.99.0', 24], // 6to4 relay anycast
	['192.168.0.0', 16], // private
	['198.18.0.0', 15], // benchmarking
	['198.51.100.0', 24], // documentation (TEST-NET-2)
	['203.0.113.0', 24], // documentation (TEST-NET-3)
	['224.0.0.0', 4], // multicast
	['240.0.0.0', 4], // reserved, and the broadcast address
]

function v4Number(address: string): number {
	return address.split('.').reduce((n, part) => n * 256 + Number(part), 0)
}

const V4_RANGES = REFUSED_V4.map(([base, bits]) => ({ base: v4Number(base), size: 2 ** (32 - bits) }))

function publicV4(address: string): boolean {
	const n = v4Number(address)
	return !V4_RANGES.some((r) => n >= r.base && n < r.base + r.size)
}

/** The eight 16-bit groups of an IPv6 address (a zone id dropped, an embedded dotted IPv4 read), or null. */
function v6Groups(address: string): number[] | null {
	let text = address.toLowerCase()
	const zone = text.indexOf('%')
	if (zone >= 0) text = text.slice(0, zone)
	const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
	if (dotted) {
		const n = v4Number(dotted[1]!)
		text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
	}
	const halves = text.split('::')
	if (halves.length > 2) return null
	const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)))
	const head = part(halves[0]!)
	const tail = halves.length === 2 ? part(halves[1]!) : []
	const missing = 8 - head.length - tail.length
	if (halves.length === 1 ? missing !== 0 : missing < 0) return null
	const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]
	return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null
}

const v4Of = (high: number, low: number) => `${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`

function publicV6(address: string): boolean {
	const g = v6Groups(address)
	if (!g) return false
	const [a, b, c, d, e, f, h, i] = g as [number, number, number, number, number, number, number, number]
	// IPv4-mapped (::ffff:a.b.c.d) and the NAT64 well-known prefix (64:ff9b::/96) reach an IPv4 address.
	if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff) return publicV4(v4Of(h, i))
	if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return publicV4(v4Of(h, i))
	// 6to4 (2002::/16) carries an IPv4 address in its next 32 bits.
	if (a === 0x2002) return publicV4(v4Of(b, c))
	// Only global unicast (2000::/3) is public: this leaves out ::, ::1, the IPv4-compatible ::/96,
	// 64:ff9b:1::/48, 100::/64, fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10 and ff00::/8 (multicast).
	if (a < 0x2000 || a > 0x3fff) return false
	if (a === 0x2001 && b < 0x0200) return false // 2001::/23 IETF protocol assignments (Teredo, benchmarking, ORCHID)
	if (a === 0x2001 && b === 0x0db8) return false // documentation
	if (a === 0x3fff && b < 0x1000) return false // documentation (3fff::/20)
	return true
}

/**
 * Whether an IP address is a public unicast one, the only kind a connection of a user's choosing
 * may reach. Anything that is not an IP address is not public.
 */
export function isPublicAddress(address: string): boolean {
	const text = address.replace(/^\[(.*)\]$/, '$1')
	const family = isIP(text.replace(/%.*$/, ''))
	if (family === 4) return publicV4(text)
	if (family === 6) return publicV6(text)
	return false
}

/** Where to connect: the checked address, and the name to verify a TLS certificate against (none for an IP literal). */
export type CheckedHost = { address: string; family: 4 | 6; servername: string | null }

/**
 * Resolves a host typed by a user ONCE and checks every address it gives: refused (before any
 * connection) when one is not public, unless `allowPrivate` (IMAP_ALLOW_PRIVATE_HOSTS, for
 * self-hosted setups). Connect to the returned address, never to the name again.
 */
export async function resolveHost(
	host: string,
	options: { allowPrivate: boolean; timeoutMs: number; signal?: AbortSignal },
): Promise<CheckedHost> {
	const name = host.trim().replace(/^\[(.*)\]$/, '$1')
	const literal = isIP(name)
	let addresses: Array<{ address: string; family: number }>
	if (literal) addresses = [{ address: name, family: literal }]
	else {
		if (!name) throw new OutboundError('unresolved', 'no host')
		try {
			// The system's resolver, as a connection would use it (so /etc/hosts counts: "localhost" is refused).
			addresses = await withDeadline(lookup(name, { all: true, verbatim: true }), options.timeoutMs, options.signal)
		} catch (error) {
			if (error instanceof OutboundError) throw error
			throw new OutboundError('unresolved', name, { cause: error })
		}
	}
	if (addresses.length === 0) throw new OutboundError('unresolved', name)
	if (!options.allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) throw new OutboundError('refused', name)
	const first = addresses[0]!
	return { address: first.address, family: first.family === 6 ? 6 : 4, servername: literal ? null : name }
}

// ---------------------------------------------------------------------------------------------
// Deadlines and caps
// ---------------------------------------------------------------------------------------------

/** A signal that fires after `ms`, or with `parent` (a caller's own deadline), whichever comes first. */
export function deadlineSignal(ms: number, parent?: AbortSignal): AbortSignal {
	const timeout = AbortSignal.timeout(Math.max(0, ms))
	return parent ? AbortSignal.any([timeout, parent]) : timeout
}

/**
 * Settles with `work`, or rejects with OutboundError('timeout') after `ms` or when `signal`
 * fires, whichever comes first. The work itself is not stopped: give it the same deadline.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
	// A late rejection of the abandoned work must not become an unhandled one.
	work.catch(() => undefined)
	return new Promise<T>((resolve, reject) => {
		const expire = () => {
			cleanup()
			reject(new OutboundError('timeout'))
		}
		const timer = setTimeout(expire, Math.max(0, ms))
		const cleanup = () => {
			clearTimeout(timer)
			signal?.removeEventListener('abort', expire)
		}
		if (signal?.aborted) return expire()
		signal?.addEventListener('abort', expire, { once: true })
		work.then(
			(value) => {
				cleanup()
				resolve(value)
			},
			(error: unknown) => {
				cleanup()
				reject(error)
			},
		)
	})
}

/** Reads a response body up to `maxBytes`: more is OutboundError('too_large'), and the rest is never read. */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
	if (!body) return Buffer.alloc(0)
	const reader = body.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	try {
		for (;;) {
			const { done, value } = await reader.read()
			if (done) break
			size += value.byteLength
			if (size > maxBytes) throw new OutboundError('too_large', `more than ${maxBytes} bytes`)
			chunks.push(value)
		}
	} finally {
		await reader.cancel().catch(() => undefined)
	}
	return Buffer.concat(chunks)
}

export type OutboundResponse = { status: number; ok: boolean; body: Buffer; json: <T>() => T }

/**
 * fetch() with the policy: one deadline for the whole exchange (connecting, the headers AND the
 * body; `signal` may end it sooner), a cap on the body, no redirects. Throws OutboundError:
 * 'timeout', 'too_large', 'unreachable' (no connection), and from `json()` 'invalid'. For the
 * fixed URLs of a service (Google); a URL of a user's choosing also needs its host checked
 * (resolveHost) and the connection pinned to the checked address.
 */
export async function outboundFetch(
	url: string,
	init: RequestInit,
	limits: { timeoutMs: number; maxBytes: number; signal?: AbortSignal },
): Promise<OutboundResponse> {
	const signal = deadlineSignal(limits.timeoutMs, limits.signal)
	try {
		const response = await fetch(url, { ...init, signal, redirect: 'error' })
		const declared = Number(response.headers.get('content-length') ?? NaN)
		if (declared > limits.maxBytes) {
			await response.body?.cancel().catch(() => undefined)
			throw new OutboundError('too_large', `announced ${declared} bytes`)
		}
		const body = await readCapped(response.body, limits.maxBytes)
		return {
			status: response.status,
			ok: response.ok,
			body,
			json: <T>() => {
				try {
					return JSON.parse(body.toString('utf8')) as T
				} catch (error) {
					throw new OutboundError('invalid', 'not JSON', { cause: error })
				}
			},
		}
	} catch (error) {
		if (error instanceof OutboundError) throw error
		if (signal.aborted) throw new OutboundError('timeout', url, { cause: error })
		throw new OutboundError('unreachable', url, { cause: error })
	}
}
