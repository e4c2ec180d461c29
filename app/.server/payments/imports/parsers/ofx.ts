import { createHash } from 'node:crypto'
import { parseIsoDate } from '#app/lib/dates.ts'
import { MAX_OFX_TRANSACTIONS } from '#app/lib/bank-feed.ts'
import { cleanText, parseSignedAmount } from './common.ts'

/**
 * OFX and QFX bank statements (docs/decisions/049-bank-feed.md): OFX 1.x (SGML: a `KEY:VALUE`
 * header, then tags whose leaf elements may have no closing tag) and OFX 2.x (XML), QFX being
 * Quicken's OFX with an extra `<INTU.BID>`. Only what reconciliation needs is read: each
 * statement's account (`ACCTID`, kept as a hash and its last four digits), its period
 * (`DTSTART`/`DTEND`), and each `<STMTTRN>`: type, posted date, signed amount, id, name, memo.
 *
 * The file is hostile: it is read by one forward scan with `indexOf` (the regular expressions run
 * over the whole text look for literal words: none can backtrack), a document type or entity declaration refuses the file
 * (nothing is ever expanded: only the five predefined entities and numeric references are decoded,
 * in a value of bounded length), and the caller bounds its size (MAX_OFX_BYTES) before it is read
 * and this parser its transactions (MAX_OFX_TRANSACTIONS).
 */

export type OfxLine = {
	/** The bank's id of the transaction (`FITID`), or `h:` and a hash of its fields when it gives none. */
	fitId: string
	/** The account's key: a hash of the bank and account ids, never the number itself. */
	accountKey: string
	/** How the account is shown: its last four characters. */
	accountLabel: string
	trnType: string
	/** YYYY-MM-DD, the day the bank wrote. */
	postedOn: string
	/** Signed, 'digits.dd' with a leading '-' for money out. */
	amount: string
	name: string | null
	memo: string | null
}

export type OfxError = 'empty' | 'notOfx' | 'declarations' | 'noTransactions' | 'tooManyTransactions'

export type OfxResult =
	{ ok: true; lines: OfxLine[]; start: string | null; end: string | null; unreadable: number } | { ok: false; error: OfxError }

/** The longest value of one element that is read (a name, a memo, an id); longer text is cut. */
const MAX_VALUE = 1000

/** Whether a text looks like an OFX or QFX file (its header or its root element near the top). */
export function isOfx(text: string): boolean {
	const head = text.slice(0, 4096).replace(/^\uFEFF/, '')
	return /^\s*OFXHEADER\s*:/i.test(head) || /<\?OFX\b/i.test(head) || /<OFX>/i.test(head)
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** A value's text: predefined and numeric references decoded, nothing else (no entity is ever declared). */
function decode(value: string): string {
	if (!value.includes('&')) return value
	return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/gi, (whole, ref: string) => {
		if (ref[0] === '#') {
			const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
			return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : ''
		}
		return ENTITIES[ref.toLowerCase()] ?? whole
	})
}

/** An OFX date (`YYYYMMDD`, then an optional time and zone) as YYYY-MM-DD, or null. */
export function ofxDate(value: string): string | null {
	const m = /^(\d{4})(\d{2})(\d{2})/.exec(value.trim())
	return m ? parseIsoDate(`${m[1]}-${m[2]}-${m[3]}`) : null
}

type Element = { tag: string; value: string }

/**
 * The elements of a text in order, one forward scan: `<TAG>value` (a leaf: the text up to the
 * next `<`), `</TAG>` (an end, value ''), processing instructions and comments passed over. A
 * leaf's value is trimmed and cut to MAX_VALUE characters.
 */
function* elements(text: string, from: number): Generator<Element & { end: boolean }> {
	let i = text.indexOf('<', from)
	while (i >= 0 && i < text.length) {
		const next = text[i + 1]
		if (next === '?' || next === '!') {
			const close = text.indexOf(next === '!' && text.startsWith('<!--', i) ? '-->' : '>', i + 2)
			if (close < 0) return
			i = text.indexOf('<', close)
			continue
		}
		const close = text.indexOf('>', i + 1)
		if (close < 0) return
		const end = next === '/'
		const raw = text.slice(end ? i + 2 : i + 1, close)
		// A tag with attributes (`<OFX xmlns=…>`) or a self-closing one is named by its first word.
		const tag = raw.split(/[\s/]/, 1)[0]!.toUpperCase()
		const after = text.indexOf('<', close + 1)
		const stop = after < 0 ? text.length : after
		const value = end ? '' : text.slice(close + 1, Math.min(stop, close + 1 + MAX_VALUE + 64)).trim()
		if (tag) yield { tag, value: value.length > MAX_VALUE ? value.slice(0, MAX_VALUE) : value, end }
		i = after
	}
}

function accountOf(bankId: string, acctId: string): { key: string; label: string } {
	const id = acctId.replace(/\s+/g, '')
	return {
		key: createHash('sha256').update(`${bankId.trim()}\u0000${id}`).digest('hex').slice(0, 32),
		label: id.length > 4 ? `••${id.slice(-4)}` : id || '—',
	}
}

/**
 * A bank statement's lines, from the text of an OFX or QFX file. A transaction whose date or
 * amount does not read is counted as unreadable, never guessed; one without an id is given one
 * from its fields (the occurrence number tells two identical lines of one file apart).
 */
export function parseOfx(text: string): OfxResult {
	if (!text.trim()) return { ok: false, error: 'empty' }
	if (text.includes('\0') || !isOfx(text)) return { ok: false, error: 'notOfx' }
	// A declaration is the door to entity expansion (and to external entities): never read.
	if (/<!DOCTYPE|<!ENTITY|<!ELEMENT|<!ATTLIST/i.test(text)) return { ok: false, error: 'declarations' }
	const root = text.search(/<OFX[\s>]/i)
	if (root < 0) return { ok: false, error: 'notOfx' }
	const lines: OfxLine[] = []
	const seen = new Map<string, number>()
	let account = accountOf('', '')
	let bankId = ''
	let start: string | null = null
	let end: string | null = null
	let unreadable = 0
	let current: Record<string, string> | null = null
	/** PAYEE aggregates (OFX 2) hold a NAME of their own, read as the transaction's name. */
	for (const el of elements(text, root)) {
		if (el.end) {
			if (el.tag === 'STMTTRN' && current) {
				const line = lineOf(current, account)
				if (!line) unreadable++
				else {
					const n = (seen.get(line.fitId) ?? 0) + 1
					seen.set(line.fitId, n)
					if (line.fitId.startsWith('h:')) line.fitId = `${line.fitId}:${n}`
					else if (n > 1) continue
					lines.push(line)
					if (lines.length > MAX_OFX_TRANSACTIONS) return { ok: false, error: 'tooManyTransactions' }
				}
				current = null
			}
			continue
		}
		const value = decode(el.value)
		if (el.tag === 'STMTTRN') {
			current = {}
			continue
		}
		if (current) {
			// The first of each field wins (a PAYEE's NAME after the transaction's own is not read).
			if (!(el.tag in current)) current[el.tag] = value
			continue
		}
		if (el.tag === 'BANKID') bankId = value
		else if (el.tag === 'ACCTID') account = accountOf(bankId, value)
		else if (el.tag === 'DTSTART') {
			const d = ofxDate(value)
			if (d && (!start || d < start)) start = d
		} else if (el.tag === 'DTEND') {
			const d = ofxDate(value)
			if (d && (!end || d > end)) end = d
		}
	}
	if (lines.length === 0) return { ok: false, error: unreadable ? 'notOfx' : 'noTransactions' }
	return { ok: true, lines, start, end, unreadable }
}

function lineOf(fields: Record<string, string>, account: { key: string; label: string }): OfxLine | null {
	const postedOn = ofxDate(fields.DTPOSTED ?? '')
	const parsed = parseSignedAmount(fields.TRNAMT ?? '')
	if (!postedOn || !parsed || parsed.value === '0.00') return null
	const amount = `${parsed.sign < 0 ? '-' : ''}${parsed.value}`
	const name = cleanText(fields.NAME ?? '')?.slice(0, 255) ?? null
	const memo = cleanText(fields.MEMO ?? '')?.slice(0, 255) ?? null
	const trnType = (fields.TRNTYPE ?? '').trim().toUpperCase().slice(0, 20)
	const given = (fields.FITID ?? '').trim().slice(0, 255)
	const fitId =
		given ||
		`h:${createHash('sha256')
			.update([postedOn, amount, name ?? '', memo ?? '', trnType].join('\u0000'))
			.digest('hex')
			.slice(0, 40)}`
	return { fitId, accountKey: account.key, accountLabel: account.label, trnType, postedOn, amount, name, memo }
}
