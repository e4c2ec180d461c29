/**
 * From a received email to zero or one payment (docs/product.md, Email sync). Pure: no
 * database, no network. The sender's domain picks the parser; a failed DKIM/SPF/DMARC result
 * in the receiving server's Authentication-Results marks it spoofed; a forwarded notice
 * ("Fwd:") from one of the owner's own addresses is read from the forwarded part. Outgoing
 * notices, requests and other mail of a known sender are ignored; a notice of a known sender
 * that looks like a payment but cannot be read is 'unreadable', kept with its subject.
 */
import { dateIn } from '#app/lib/dates.ts'
import type { Notice } from '../notice.ts'
import { cashApp } from './cashapp.ts'
import { paypal } from './paypal.ts'
import type { CustomReading } from './custom.ts'
import type { NoticeOutcome, NoticeParser } from './types.ts'
import { venmo } from './venmo.ts'
import { zelleBanks } from './zelle.ts'

export type { NoticeOutcome, NoticePayment } from './types.ts'

export const PARSERS: NoticeParser[] = [venmo, cashApp, paypal, ...zelleBanks]

export type ParseOptions = {
	/** The owner's own addresses: their forwarded notices are read. */
	ownAddresses?: string[]
	/** The organization's timezone, for the day a payment was received. Default UTC. */
	timeZone?: string
	/** Email Pro's custom parsing rules, for a sender no parser knows (parsers/custom.ts). */
	custom?: { matches: (notice: Notice) => boolean; take: (notice: Notice) => CustomReading | null }
}

function domainOf(address: string) {
	return address.slice(address.lastIndexOf('@') + 1).toLowerCase()
}

/** The parser of a sender address, when its domain (or a parent domain) is a known one. */
export function parserFor(address: string): NoticeParser | null {
	const domain = domainOf(address)
	return PARSERS.find((p) => p.domains.some((d) => domain === d || domain.endsWith(`.${d}`))) ?? null
}

/**
 * Whether the receiving server's Authentication-Results contradict the sender: DMARC failed,
 * or DKIM and SPF both failed / neither passed. Without the header, nothing to say.
 */
export function failsAuthentication(authResults: string | null): boolean {
	if (!authResults) return false
	const result = (method: string) => new RegExp(`\\b${method}=([a-z]+)`, 'gi')
	const all = (method: string) => [...authResults.matchAll(result(method))].map((m) => m[1]!.toLowerCase())
	const dkim = all('dkim')
	const spf = all('spf')
	const dmarc = all('dmarc')
	if (dmarc.includes('fail')) return true
	const dkimPass = dkim.includes('pass')
	const spfPass = spf.includes('pass')
	if (dmarc.includes('pass')) return false
	return !dkimPass && !spfPass
}

const FORWARDED_SUBJECT = /^\s*(fwd?|fw)\s*:\s*/i

/** The notice inside a forwarded message ("---------- Forwarded message ---------" or "Begin forwarded message:"). */
export function unwrapForwarded(notice: Notice): Notice | null {
	const text = notice.text
	const start = /^[ >]*(?:-{2,}\s*Forwarded message\s*-{2,}|Begin forwarded message:|-{2,}\s*Original Message\s*-{2,})\s*$/im.exec(text)
	if (!start) return null
	const rest = text.slice(start.index + start[0].length).replace(/^\n+/, '')
	const lines = rest.split('\n')
	const headers: Record<string, string> = {}
	let i = 0
	for (; i < lines.length; i++) {
		const line = lines[i]!.replace(/^>\s?/, '').trim()
		if (line === '') {
			if (Object.keys(headers).length > 0) break
			continue
		}
		const match = /^(From|Date|Sent|Subject|To|Cc):\s*(.*)$/i.exec(line)
		if (!match) break
		headers[match[1]!.toLowerCase()] = match[2]!.trim()
	}
	const from = headers.from ?? ''
	const address = (/<([^>]+)>/.exec(from)?.[1] ?? from).trim().toLowerCase()
	if (!address.includes('@')) return null
	const date = headers.date ?? headers.sent
	const parsed = date ? new Date(date.replace(/ at /i, ' ')) : null
	return {
		from: address,
		fromName: from
			.replace(/<[^>]+>/, '')
			.replace(/"/g, '')
			.trim(),
		subject: headers.subject ?? '',
		date: parsed && !Number.isNaN(parsed.getTime()) ? parsed : notice.date,
		text: lines
			.slice(i)
			.map((l) => l.replace(/^>\s?/, ''))
			.join('\n')
			.trim(),
		messageId: notice.messageId,
		// The forwarded copy carries no verdict of its own; the owner's message was checked.
		authResults: null,
	}
}

export function parseNotice(input: Notice, options: ParseOptions = {}): NoticeOutcome {
	let notice = input
	const own = (options.ownAddresses ?? []).map((a) => a.toLowerCase())
	if (FORWARDED_SUBJECT.test(notice.subject) && own.includes(notice.from)) {
		if (failsAuthentication(notice.authResults)) return { kind: 'ignored', reason: 'spoofed' }
		const inner = unwrapForwarded(notice)
		if (!inner) return { kind: 'ignored', reason: 'other' }
		notice = inner
	}
	const parser = parserFor(notice.from)
	if (!parser) return readByRule(input, notice, options)
	if (failsAuthentication(notice.authResults)) return { kind: 'ignored', reason: 'spoofed' }
	const result = parser.parse(notice)
	if (result === 'unreadable') return { kind: 'unreadable', subject: input.subject, sender: notice.from }
	if (typeof result === 'string') return { kind: 'ignored', reason: result }
	const when = notice.date ?? input.date
	if (!when) return { kind: 'unreadable', subject: input.subject, sender: notice.from }
	return {
		kind: 'payment',
		payment: {
			...result,
			date: dateIn(options.timeZone ?? 'UTC', when),
			source: 'email',
			method: parser.method,
			issuer: parser.issuer,
			noticeId: input.messageId,
		},
	}
}

/**
 * A notice of a sender no parser knows: read by the organization's custom parsing rules (Email
 * Pro), if one takes it; built-in senders never reach here, so they always win.
 */
function readByRule(input: Notice, notice: Notice, options: ParseOptions): NoticeOutcome {
	const custom = options.custom
	if (!custom || !custom.matches(notice)) return { kind: 'ignored', reason: 'unknown_sender' }
	if (failsAuthentication(notice.authResults)) return { kind: 'ignored', reason: 'spoofed' }
	const reading = custom.take(notice)
	const when = notice.date ?? input.date
	if (!reading?.ok || !when) return { kind: 'unreadable', subject: input.subject, sender: notice.from }
	const { amount, payer, memo, externalId, method, issuer } = reading
	return {
		kind: 'payment',
		payment: {
			amount,
			payer,
			memo,
			externalId,
			date: dateIn(options.timeZone ?? 'UTC', when),
			source: 'email',
			method,
			issuer,
			noticeId: input.messageId,
		},
	}
}
