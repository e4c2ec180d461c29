/**
 * The organization's message templates (docs/product.md, Reminders & Messaging): per kind and
 * language, what the owner wrote (public.message_templates) or the built-in text shipped in
 * public/locales/{lng}/messaging.json (`defaults`). Members read them; owners and administrators
 * save and reset them (the table's policies say so too).
 */
import { supportedLanguages, type Language } from '#app/lib/i18n.ts'
import { MESSAGE_KINDS, type MessageKind } from '#app/lib/schemas/messaging.ts'
import { asSystem, asUser, sql } from '../db/index.ts'
import { resources } from '../i18n.ts'
import type { Template } from './render.ts'

/**
 * The built-in template of a kind in a language, read as written in the locale file (not through
 * i18next, which would take its placeholders for its own).
 */
export function defaultTemplate(kind: MessageKind, language: string): Template {
	const lng = (supportedLanguages as readonly string[]).includes(language) ? language : 'en'
	const read = (l: string) => (resources[l]?.messaging as { defaults?: Record<string, Template> } | undefined)?.defaults?.[kind]
	const found = read(lng) ?? read('en')
	if (!found) throw new Error(`No built-in ${kind} template`)
	return { subject: found.subject, body: found.body }
}

export type TemplateView = Template & { kind: MessageKind; language: Language; edited: boolean }

/** Every template of the organization, kind by kind and language by language: its own text where it wrote one, else the built-in. */
export async function listTemplates(userId: string, organizationId: string): Promise<TemplateView[]> {
	const rows = await asUser(userId, (trx) =>
		trx
			.selectFrom('message_templates')
			.select(['kind', 'language', 'subject', 'body'])
			.where('organization_id', '=', organizationId)
			.execute(),
	)
	return MESSAGE_KINDS.flatMap((kind) =>
		supportedLanguages.map((language) => {
			const own = rows.find((r) => r.kind === kind && r.language === language)
			return own
				? { kind, language, subject: own.subject, body: own.body, edited: true }
				: { kind, language, ...defaultTemplate(kind, language), edited: false }
		}),
	)
}

/** Saves the organization's text of one template (already checked by templateSchema), as the member (RLS: owners and administrators). */
export async function saveTemplate(
	userId: string,
	organizationId: string,
	value: { kind: MessageKind; language: Language; subject: string; body: string },
): Promise<void> {
	await asUser(userId, (trx) =>
		sql`
			insert into public.message_templates (organization_id, kind, language, subject, body)
			values (${organizationId}, ${value.kind}, ${value.language}, ${value.subject}, ${value.body})
			on conflict (organization_id, kind, language) do update set subject = excluded.subject, body = excluded.body`.execute(trx),
	)
}

/** Goes back to the built-in text of one template: the organization's own row goes. */
export async function resetTemplate(userId: string, organizationId: string, kind: MessageKind, language: Language): Promise<void> {
	await asUser(userId, (trx) =>
		trx
			.deleteFrom('message_templates')
			.where('organization_id', '=', organizationId)
			.where('kind', '=', kind)
			.where('language', '=', language)
			.execute(),
	)
}

/**
 * For the jobs: the templates the organizations wrote for one kind, by organization and language
 * (`${organizationId}:${language}`), in one statement. What is missing uses `defaultTemplate`.
 */
export async function organizationTemplates(organizationIds: string[], kind: MessageKind): Promise<Map<string, Template>> {
	const ids = [...new Set(organizationIds)]
	if (!ids.length) return new Map()
	const { rows } = await asSystem((trx) =>
		sql<{ organization_id: string; language: string; subject: string; body: string }>`
			select organization_id, language, subject, body from public.message_templates
			where kind = ${kind} and organization_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`.execute(trx),
	)
	return new Map(rows.map((r) => [`${r.organization_id}:${r.language}`, { subject: r.subject, body: r.body }]))
}

/** The template a message uses: the organization's, else the built-in one, in `language`. */
export function templateFor(own: Map<string, Template>, organizationId: string, kind: MessageKind, language: string): Template {
	return own.get(`${organizationId}:${language}`) ?? defaultTemplate(kind, language)
}
