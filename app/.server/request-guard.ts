import { data, redirect, type RouterContextProvider } from 'react-router'
import { formOrganizationContext } from './context.ts'
import { getInstance } from './i18n.ts'
import type { ErrorMessage, ErrorPayload } from '#app/lib/errors.ts'
import { ORGANIZATION_FIELD } from '#app/lib/organization-field.ts'
import { isUuid } from '#app/lib/uuid.ts'

/**
 * Refuses, before any route reads it, a request that no screen sends and that would otherwise
 * reach a parser or PostgreSQL in a shape they choke on:
 *
 * - a NUL byte anywhere in the URL or in a form field (PostgreSQL text cannot hold one);
 * - a write whose body is not a form (JSON, text/plain, none) or is malformed multipart;
 * - a body over the size cap (a urlencoded form, or an upload);
 * - a form with more fields than any screen has, or a list index (`rows[4294967294]`, also
 *   inside conform's `__intent__`) past `MAX_LIST_INDEX`, so no parser ever builds a huge array;
 * - an organization field (ORGANIZATION_FIELD) that is not one UUID.
 *
 * The organization field of a form it lets through is kept for the /app layout (`formOrganizationContext`).
 *
 * Every refusal is a 4xx that the error boundary explains in the user's language.
 */

/**
 * The largest urlencoded form body any route reads. Screens may set a lower cap of their own
 * with a message in context (a table save allows 2 MB).
 */
export const MAX_FORM_BYTES = 4 * 1024 * 1024
/** The largest multipart body (an upload of the largest file a screen accepts, plus fields). */
export const MAX_MULTIPART_BYTES = 12 * 1024 * 1024
/** No list on any screen comes near this index (a table save holds at most 500 rows). */
export const MAX_LIST_INDEX = 999
/** No form on any screen has this many fields. */
export const MAX_FIELDS = 20_000

export type GuardRefusal = { status: 400 | 413 | 415; reason: GuardReason }
export type GuardReason = 'nulByte' | 'notAForm' | 'malformedBody' | 'tooLarge' | 'tooManyFields' | 'listIndex'

const READS_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The refusal for this request, or null when it may go on. */
export async function inspectRequest(request: Request): Promise<GuardRefusal | null> {
	return (await readRequest(request)).refusal
}

type Inspected = { refusal: GuardRefusal | null; organizationId: string | null }

/** The refusal for this request (or null), and the organization field of the form it posts. */
async function readRequest(request: Request): Promise<Inspected> {
	const refuse = (refusal: GuardRefusal): Inspected => ({ refusal, organizationId: null })
	if (hasNulByte(request.url)) return refuse({ status: 400, reason: 'nulByte' })
	if (!READS_BODY.has(request.method.toUpperCase())) return { refusal: null, organizationId: null }

	const type = (request.headers.get('content-type') ?? '').toLowerCase()
	const multipart = type.startsWith('multipart/form-data')
	if (!multipart && !type.startsWith('application/x-www-form-urlencoded')) return refuse({ status: 415, reason: 'notAForm' })

	const cap = multipart ? MAX_MULTIPART_BYTES : MAX_FORM_BYTES
	const declared = Number(request.headers.get('content-length') ?? NaN)
	if (Number.isFinite(declared) && declared > cap) return refuse({ status: 413, reason: 'tooLarge' })

	const body = await readCapped(request.clone(), cap)
	if (body === null) return refuse({ status: 413, reason: 'tooLarge' })

	let fields: FormData | URLSearchParams
	if (multipart) {
		try {
			const headers = new Headers({ 'content-type': request.headers.get('content-type') ?? '' })
			fields = await new Response(new Uint8Array(body), { headers }).formData()
		} catch {
			return refuse({ status: 400, reason: 'malformedBody' })
		}
	} else {
		const text = decodeUtf8(body)
		if (text === null) return refuse({ status: 400, reason: 'malformedBody' })
		fields = new URLSearchParams(text)
	}
	const refusal = inspectFields(fields)
	if (refusal) return refuse(refusal)
	const organizations = fields.getAll(ORGANIZATION_FIELD)
	if (organizations.length === 0) return { refusal: null, organizationId: null }
	const [organizationId] = organizations
	if (organizations.length > 1 || !isUuid(organizationId)) return refuse({ status: 400, reason: 'malformedBody' })
	return { refusal: null, organizationId }
}

/** The checks on a parsed form's names and values (exported for the tests). */
export function inspectFields(fields: Iterable<[string, FormDataEntryValue]>): GuardRefusal | null {
	let count = 0
	for (const [name, value] of fields) {
		if (++count > MAX_FIELDS) return { status: 413, reason: 'tooManyFields' }
		if (name.includes('\0') || (typeof value === 'string' && value.includes('\0'))) return { status: 400, reason: 'nulByte' }
		if (exceedsListIndex(name)) return { status: 413, reason: 'listIndex' }
		if (name === '__intent__' || name === '__state__') {
			if (typeof value !== 'string') return { status: 400, reason: 'malformedBody' }
			if (exceedsListIndex(value)) return { status: 413, reason: 'listIndex' }
			if (!(name === '__intent__' ? isConformIntent(value) : isJsonObject(value))) return { status: 400, reason: 'malformedBody' }
		}
	}
	return null
}

const CONFORM_INTENTS = new Set(['validate', 'update', 'reset', 'insert', 'remove', 'reorder'])

/**
 * Whether a `__intent__` value is one conform's buttons send: `{"type": …, "payload": {…}}` with
 * a string name and whole-number indices. Anything else makes conform's parser throw (a 500),
 * so it is refused here.
 */
function isConformIntent(text: string) {
	const intent = parseJson(text)
	if (!isPlainObject(intent) || typeof intent.type !== 'string' || !CONFORM_INTENTS.has(intent.type)) return false
	const { payload } = intent
	if (!isPlainObject(payload)) return false
	if (payload.name !== undefined && typeof payload.name !== 'string') return false
	for (const key of ['index', 'from', 'to'] as const) {
		const n = payload[key]
		if (n !== undefined && !(Number.isInteger(n) && (n as number) >= 0 && (n as number) <= MAX_LIST_INDEX)) return false
	}
	if (['insert', 'remove', 'reorder'].includes(intent.type) && typeof payload.name !== 'string') return false
	return true
}

function isJsonObject(text: string) {
	return isPlainObject(parseJson(text))
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text)
	} catch {
		return undefined
	}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Whether a field name (or conform intent) names a list index past MAX_LIST_INDEX, in any
 * spelling a parser might read as a number: `[4294967294]`, `[0004294967294]`, `"index":1e9`.
 */
export function exceedsListIndex(text: string) {
	for (const match of text.matchAll(/\[\s*(\d+)\s*\]|"index"\s*:\s*"?([\d.eE+]+)/g)) {
		const digits = match[1] ?? match[2] ?? ''
		const index = Number(digits)
		if (!Number.isFinite(index) || index > MAX_LIST_INDEX) return true
	}
	return false
}

function hasNulByte(url: string) {
	if (url.includes('\0') || /%00/i.test(url)) return true
	return false
}

/** The body, or null when it is larger than `cap` (counted while it streams). */
export async function readCapped(request: Request, cap: number): Promise<Buffer | null> {
	if (!request.body) return Buffer.alloc(0)
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		size += value.byteLength
		if (size > cap) {
			// Not awaited: a cloned body's source is cancelled only once both copies are.
			reader.cancel().catch(() => undefined)
			return null
		}
		chunks.push(value)
	}
	return Buffer.concat(chunks)
}

/** How much of a too-large upload is read and dropped so that the browser gets its answer. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024

/** Reads the body to its end without keeping it; false when it runs past `max` (then left unread). */
async function discardBody(request: Request, max: number) {
	if (!request.body || request.bodyUsed) return true
	const reader = request.body.getReader()
	let size = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) return true
		size += value.byteLength
		if (size > max) {
			reader.cancel().catch(() => undefined)
			return false
		}
	}
}

function decodeUtf8(bytes: Uint8Array) {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
	} catch {
		return null
	}
}

const MESSAGES = {
	400: 'badRequest',
	413: 'tooLarge',
	415: 'notAForm',
} as const satisfies Record<GuardRefusal['status'], ErrorMessage>

/**
 * Upload screens whose too-large upload (multipart) goes back to the form, which says so there
 * (`?error=`), instead of an error page in its place. Keyed by path, also as a `.data` request.
 */
const TOO_LARGE_BACK_TO: Record<string, string> = {
	'/app/transactions/import': '/app/transactions/import?error=tooLarge',
}

/**
 * Root middleware: answers a refusal as a 4xx, else goes on. A screen renders it in its error
 * boundary; a resource route (sign-out, the CSV export) answers the translated message itself.
 */
export async function requestGuard(
	{ request, context }: { request: Request; context: Readonly<RouterContextProvider> },
	next: () => Promise<Response>,
) {
	const { refusal, organizationId } = await readRequest(request)
	context.set(formOrganizationContext, organizationId)
	if (refusal) {
		// The rest of a body that is too large is not read (the connection closes after the answer),
		// except an upload sent back to its screen, below.
		const headers = refusal.status === 413 ? { connection: 'close' } : undefined
		const upload = (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')
		const back =
			upload && refusal.reason === 'tooLarge' ? TOO_LARGE_BACK_TO[new URL(request.url).pathname.replace(/\.data$/, '')] : undefined
		// A browser still sending shows a connection error instead of an answer given before the
		// end of its upload: the rest of a plausible file is read and dropped, then it is sent back.
		if (back) throw redirect(back, (await discardBody(request, MAX_DISCARDED_BYTES)) ? undefined : { headers })
		const message = MESSAGES[refusal.status]
		// `message` for the error boundary (lib/errors.ts); `text` for a resource route's caller.
		const text = getInstance(context).t(`errors.${message}`)
		throw data({ message, reason: refusal.reason, text } satisfies ErrorPayload & Record<string, string>, {
			status: refusal.status,
			headers,
		})
	}
	return next()
}
