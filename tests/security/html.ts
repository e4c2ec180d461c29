/** Small readers of server-rendered HTML: the forms a page renders without JavaScript, its script tags. */

export type HtmlForm = { method: string; action: string; fields: Array<[string, string]>; textFields: string[]; hiddenFields: string[] }

const TEXT_TYPES = new Set(['text', 'email', 'search', 'password', 'tel', 'url', 'hidden', 'number', 'date', 'time', ''])

function attr(tag: string, name: string) {
	const match = new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)
	const value = match ? (match[1] ?? match[2] ?? match[3] ?? '') : null
	return value === null ? null : decodeEntities(value)
}

function decodeEntities(text: string) {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&#x27;|&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&')
}

/** Every <form> of the page with its named fields (checked boxes, selected options) and which of them hold text. */
export function formsOf(html: string, pageUrl: string): HtmlForm[] {
	const forms: HtmlForm[] = []
	for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
		const [, open = '', inner = ''] = match
		const method = (attr(open, 'method') ?? 'get').toLowerCase()
		const action = new URL(attr(open, 'action') ?? pageUrl, pageUrl).toString()
		const fields: Array<[string, string]> = []
		const textFields: string[] = []
		const hiddenFields: string[] = []
		for (const [tag] of inner.matchAll(/<input\b[^>]*>/gi)) {
			const name = attr(tag, 'name')
			if (!name || /\sdisabled(?:[\s=>]|$)/i.test(tag)) continue
			const type = (attr(tag, 'type') ?? '').toLowerCase()
			if (['checkbox', 'radio'].includes(type)) {
				if (/\schecked(?:[\s=>]|$)/i.test(tag)) fields.push([name, attr(tag, 'value') ?? 'on'])
				continue
			}
			if (['submit', 'button', 'file', 'image', 'reset'].includes(type)) continue
			fields.push([name, attr(tag, 'value') ?? ''])
			if (TEXT_TYPES.has(type)) textFields.push(name)
			if (type === 'hidden') hiddenFields.push(name)
		}
		for (const m of inner.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/gi)) {
			const name = attr(m[0], 'name')
			if (!name) continue
			fields.push([name, decodeEntities(m[2] ?? '')])
			textFields.push(name)
		}
		for (const m of inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)) {
			const name = attr(m[0], 'name')
			if (!name) continue
			const options = [...(m[2] ?? '').matchAll(/<option\b[^>]*>/gi)].map((o) => o[0])
			const chosen = options.find((o) => /\sselected(?:[\s=>]|$)/i.test(o)) ?? options[0]
			fields.push([name, chosen ? (attr(chosen, 'value') ?? '') : ''])
		}
		// The button a user presses to send it: the one named `intent` when there is one.
		const buttons = [...inner.matchAll(/<button\b[^>]*\sname=[^>]*>/gi)].map((m) => m[0])
		const submitter = buttons.find((b) => attr(b, 'name') === 'intent') ?? buttons[0]
		if (submitter && attr(submitter, 'name') && (attr(submitter, 'type') ?? 'submit') === 'submit')
			fields.push([attr(submitter, 'name')!, attr(submitter, 'value') ?? ''])
		forms.push({ method, action, fields, textFields, hiddenFields })
	}
	return forms
}

/** Every <script …> opening tag of the page. */
export function scriptTags(html: string) {
	return [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0])
}

export function nonceOf(tag: string) {
	return attr(tag, 'nonce')
}
