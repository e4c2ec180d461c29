import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { z } from 'zod'
import { getLocale } from '#app/.server/i18n.ts'
import { previewTemplate } from '#app/.server/messaging/preview.ts'
import { canEditMessaging, getMessagingSettings, requireMessagingMember, saveMessagingSettings } from '#app/.server/messaging/settings.ts'
import { listTemplates, resetTemplate, saveTemplate } from '#app/.server/messaging/templates.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { InvoiceReminderSettings } from '#app/components/messaging/invoice-reminder-settings.tsx'
import { TemplateEditor } from '#app/components/messaging/template-editor.tsx'
import { TemplateList } from '#app/components/messaging/template-list.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { supportedLanguages, type Language } from '#app/lib/i18n.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MESSAGE_KINDS, reminderSettingsSchema, templateSchema } from '#app/lib/schemas/messaging.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/index'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('messaging')

/** Which template a form or an address names (the reset form sends only these). */
const choiceSchema = z.object({ kind: z.enum(MESSAGE_KINDS), language: z.enum(supportedLanguages) })

/** The open template: the address's `kind` and `lang`, else the first kind in the member's language. */
function chosen(request: Request, locale: Language) {
	const params = new URL(request.url).searchParams
	return {
		kind: MESSAGE_KINDS.find((k) => k === params.get('kind')) ?? MESSAGE_KINDS[0],
		language: supportedLanguages.find((l) => l === params.get('lang')) ?? locale,
	}
}

const back = (choice: { kind: string; language: string }) =>
	`/app/messaging?kind=${choice.kind}&lang=${encodeURIComponent(choice.language)}`

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = await requireMessagingMember(context)
	const choice = chosen(request, getLocale(context))
	const [templates, settings] = await Promise.all([
		listTemplates(user.userId, organization.id),
		getMessagingSettings(user.userId, organization.id),
	])
	const open = templates.find((x) => x.kind === choice.kind && x.language === choice.language)!
	return {
		templates: templates.map(({ kind, language, edited }) => ({ kind, language, edited })),
		template: open,
		settings: settings ?? { invoiceReminders: true, daysBefore: [], daysAfter: [] },
		canEdit: canEditMessaging(organization.role),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireMessagingMember(context)
	const formData = await request.formData()
	const intent = formData.get('intent')
	const editor = canEditMessaging(organization.role)
	switch (intent) {
		case 'preview':
		case 'save-template': {
			if (intent === 'save-template' && !editor) errorResponse(403, 'forbidden')
			const submission = parseWithZod(formData, { schema: templateSchema })
			if (submission.status !== 'success') return data({ templateResult: submission.reply(), preview: null }, { status: 400 })
			const { kind, language, subject, body } = submission.value
			if (intent === 'preview') {
				const preview = previewTemplate(kind, language, { subject, body }, organization)
				return { templateResult: submission.reply(), preview: { subject: preview.subject, html: preview.html } }
			}
			await saveTemplate(user.userId, organization.id, { kind, language, subject, body })
			return redirectWithToast(back(submission.value), { type: 'success', title: 'messaging:templates.saved' })
		}
		case 'reset-template': {
			if (!editor) errorResponse(403, 'forbidden')
			const choice = choiceSchema.safeParse({ kind: formData.get('kind'), language: formData.get('language') })
			if (!choice.success) errorResponse(400, 'badRequest')
			await resetTemplate(user.userId, organization.id, choice.data.kind, choice.data.language)
			return redirectWithToast(back(choice.data), { type: 'success', title: 'messaging:templates.wasReset' })
		}
		case 'save-settings': {
			if (!editor) errorResponse(403, 'forbidden')
			const submission = parseWithZod(formData, { schema: reminderSettingsSchema, disableAutoCoercion: true })
			if (submission.status !== 'success') return data({ settingsResult: submission.reply() }, { status: 400 })
			if (!(await saveMessagingSettings(user.userId, organization.id, submission.value))) errorResponse(404, 'notFound')
			return redirectWithToast('/app/messaging#reminders', { type: 'success', title: 'messaging:settings.saved' })
		}
		default:
			errorResponse(400, 'badRequest')
	}
}

export default function Messaging({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('messaging')
	const { templates, template, settings, canEdit } = loaderData
	// The answer to a post of the template that is open (not of one left by a link since).
	const answer = actionData && 'templateResult' in actionData ? actionData : undefined
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
				<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
			</div>
			<TemplateList templates={templates} current={template} />
			<TemplateEditor
				key={`${template.kind}-${template.language}`}
				template={template}
				canEdit={canEdit}
				result={answer?.templateResult}
				preview={answer?.preview ?? null}
			/>
			<InvoiceReminderSettings
				settings={settings}
				canEdit={canEdit}
				result={actionData && 'settingsResult' in actionData ? actionData.settingsResult : undefined}
			/>
		</div>
	)
}
