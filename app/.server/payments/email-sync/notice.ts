/**
 * A received email reduced to what the notice parsers read (docs/product.md, Email sync): the
 * sender, subject, date, the topmost Authentication-Results header and the body as plain text
 * (the HTML part turned into text when there is no text part). MIME (multipart,
 * quoted-printable, base64, encoded words) is postal-mime's job.
 */
import PostalMime from 'postal-mime'

export type Notice = {
	/** The sender's address, lower-cased. */
	from: string
	fromName: string
	subject: string
	date: Date | null
	text: string
	messageId: string | null
	/** The first (topmost, added by the receiving server) Authentication-Results header. */
	authResults: string | null
}

const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
	reg: '®',
	copy: '©',
	trade: '™',
	middot: '·',
	ndash: '–',
	mdash: '—',
	hellip: '…',
}

/** A plain-text reading of an HTML body: blocks become lines, tags go, entities are decoded. */
export function htmlToText(html: string): string {
	return html
		.replace(/<(style|script|head)\b[^>]*>[\s\S]*?<\/\1>/gi, '')
		.replace(/<!--[\s\S]*?-->/g, '')
		.replace(/<br\s*\/?>/gi, '\n')
		.replace(/<\/(p|div|tr|h[1-6]|li|table|section|blockquote)>/gi, '\n')
		.replace(/<\/t[dh]>/gi, ' ')
		.replace(/<[^>]+>/g, '')
		.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
			if (name[0] === '#') {
				const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
				return Number.isFinite(code) ? String.fromCodePoint(code) : whole
			}
			return ENTITIES[name.toLowerCase()] ?? whole
		})
		.replace(/[ \t\u00a0]+/g, ' ')
		.replace(/ *\n */g, '\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim()
}

export async function readNotice(raw: string | Uint8Array | ArrayBuffer): Promise<Notice> {
	const email = await PostalMime.parse(raw)
	const from = email.from && 'address' in email.from && email.from.address ? email.from : null
	const date = email.date ? new Date(email.date) : null
	return {
		from: (from?.address ?? '').toLowerCase(),
		fromName: from?.name ?? '',
		subject: (email.subject ?? '').trim(),
		date: date && !Number.isNaN(date.getTime()) ? date : null,
		text: (email.text?.trim() ? email.text : htmlToText(email.html ?? '')).replace(/\r\n/g, '\n'),
		messageId: email.messageId ?? null,
		authResults: email.headers.find((h) => h.key === 'authentication-results')?.value ?? null,
	}
}
