/**
 * Rendering a message template (docs/product.md, Reminders & Messaging): the template's text with
 * its placeholders replaced by values already formatted in the message's language. The syntax is
 * read once (`parseTemplate`, app/lib/schemas/messaging.ts): text and `{{name}}`, nothing else is
 * interpreted. The HTML part escapes every character of the template and of the values; only a
 * link placeholder (the pay link, the manage link) becomes an anchor, and only for an http(s)
 * address. The preview on /app/messaging shows this same HTML, so it is what the client gets.
 */
import { LINK_PLACEHOLDERS, parseTemplate, type MessageKind, type Placeholder, type TemplatePart } from '#app/lib/schemas/messaging.ts'
import { oneLine } from '#app/lib/schemas/fields.ts'

export type MessageValues = Partial<Record<Placeholder, string>>
export type Template = { subject: string; body: string }
export type RenderedMessage = { subject: string; text: string; html: string }

/** Text made safe inside HTML (element content and quoted attributes). */
export function escapeHtml(text: string) {
	return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** The parts of a text; a stored text that no longer parses (written before a rule changed) is read as plain text. */
function partsOf(text: string, kind: MessageKind): TemplatePart[] {
	const parsed = parseTemplate(text, kind)
	return parsed.ok ? parsed.parts : [{ text }]
}

function plain(parts: TemplatePart[], values: MessageValues) {
	return parts.map((p) => ('text' in p ? p.text : (values[p.placeholder] ?? ''))).join('')
}

const isWebLink = (value: string) => /^https?:\/\/[^\s]+$/.test(value)

/** One line of the body as HTML: text escaped, a link placeholder an anchor. */
function htmlParts(parts: TemplatePart[], values: MessageValues) {
	return parts
		.map((p) => {
			if ('text' in p) return escapeHtml(p.text)
			const value = values[p.placeholder] ?? ''
			if (LINK_PLACEHOLDERS.includes(p.placeholder) && isWebLink(value)) {
				return `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>`
			}
			return escapeHtml(value)
		})
		.join('')
}

/** The body as HTML paragraphs (a blank line between them), its other line breaks kept. */
function bodyHtml(parts: TemplatePart[], values: MessageValues) {
	// Cut the parts at line breaks inside text parts, keeping placeholders whole.
	const lines: TemplatePart[][] = [[]]
	for (const part of parts) {
		if ('placeholder' in part) {
			lines.at(-1)!.push(part)
			continue
		}
		const pieces = part.text.split(/\r\n|\r|\n/)
		pieces.forEach((piece, i) => {
			if (i > 0) lines.push([])
			if (piece) lines.at(-1)!.push({ text: piece })
		})
	}
	const paragraphs: string[][] = [[]]
	for (const line of lines) {
		const html = htmlParts(line, values)
		if (html.trim() === '') {
			if (paragraphs.at(-1)!.length) paragraphs.push([])
		} else paragraphs.at(-1)!.push(html)
	}
	return paragraphs
		.filter((p) => p.length)
		.map((p) => `<p style="margin:0 0 12px">${p.join('<br>')}</p>`)
		.join('\n')
}

/** A template with its values: the subject on one line, the body as text and as HTML. */
export function renderMessage(kind: MessageKind, template: Template, values: MessageValues): RenderedMessage {
	const body = partsOf(template.body, kind)
	return {
		subject: oneLine(plain(partsOf(template.subject, kind), values)).trim(),
		text: plain(body, values),
		html: bodyHtml(body, values),
	}
}
