import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useNavigation } from 'react-router'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { languageNames, type Language } from '#app/lib/i18n.ts'
import { BODY_MAX, PLACEHOLDERS, SUBJECT_MAX, splitIssue, templateSchema, type MessageKind } from '#app/lib/schemas/messaging.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

export type EditedTemplate = { kind: MessageKind; language: Language; subject: string; body: string; edited: boolean }
export type Preview = { subject: string; html: string }

/** A field's first error, translated; a placeholder's error names it. */
function useIssue() {
	const { t } = useTranslation('messaging')
	return (errors: string[] | undefined) => {
		if (!errors?.length) return undefined
		const { key, name } = splitIssue(errors[0]!)
		return t(`errors.${key}`, { name })
	}
}

/** A submit button with its own intent (several share the form), pending while that intent is posted. */
function IntentButton({
	intent,
	label,
	pendingLabel,
	variant,
}: {
	intent: string
	label: string
	pendingLabel: string
	variant?: 'outline'
}) {
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
	return (
		<Button type="submit" name="intent" value={intent} variant={variant} disabled={pending}>
			{pending ? <Spinner aria-label={pendingLabel} /> : null}
			{pending ? pendingLabel : label}
		</Button>
	)
}

/**
 * The template being edited (docs/product.md, Reminders & Messaging): its subject and message,
 * the placeholders of its kind, and the buttons: Preview (anyone who may open the screen; the
 * server renders it, with or without JavaScript), Save and "Use the built-in text" (owners and
 * administrators). Errors sit under their field and name the placeholder they are about.
 */
export function TemplateEditor({
	template,
	canEdit,
	result,
	preview,
}: {
	template: EditedTemplate
	canEdit: boolean
	result: SubmissionResult<string[]> | undefined
	preview: Preview | null
}) {
	const { t } = useTranslation('messaging')
	const issue = useIssue()
	const [form, fields] = useForm({
		id: `template-${template.kind}-${template.language}`,
		lastResult: result,
		constraint: getZodConstraint(templateSchema),
		defaultValue: { subject: template.subject, body: template.body },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: templateSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const kindLabel = t(`kinds.${template.kind}`)
	return (
		<div className="grid min-w-0 gap-6 lg:grid-cols-2">
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('templates.editing', { kind: kindLabel, language: languageNames[template.language] })}</h2>
					</CardTitle>
					<CardDescription>{t(`kindHints.${template.kind}`)}</CardDescription>
				</CardHeader>
				<CardContent className="grid gap-4">
					<p>
						<Badge variant={template.edited ? 'default' : 'secondary'}>
							{template.edited ? t('templates.edited') : t('templates.builtIn')}
						</Badge>
					</p>
					{canEdit ? null : <p className="text-sm text-muted-foreground">{t('templates.readOnly')}</p>}
					<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
						<input type="hidden" name="kind" value={template.kind} />
						<input type="hidden" name="language" value={template.language} />
						<Field
							label={t('templates.subject')}
							htmlFor={fields.subject.id}
							errorId={fields.subject.errorId}
							error={issue(fields.subject.errors)}
						>
							<Input {...getInputProps(fields.subject, { type: 'text' })} maxLength={SUBJECT_MAX} />
						</Field>
						<Field label={t('templates.body')} htmlFor={fields.body.id} errorId={fields.body.errorId} error={issue(fields.body.errors)}>
							<Textarea {...getTextareaProps(fields.body)} maxLength={BODY_MAX} rows={14} className="max-h-none font-mono text-sm" />
						</Field>
						<div className="flex flex-wrap gap-2">
							<IntentButton intent="preview" label={t('templates.preview')} pendingLabel={t('templates.previewing')} variant="outline" />
							{canEdit ? <IntentButton intent="save-template" label={t('templates.save')} pendingLabel={t('templates.saving')} /> : null}
						</div>
					</AppForm>
					{canEdit && template.edited ? (
						<AppForm method="post">
							<input type="hidden" name="kind" value={template.kind} />
							<input type="hidden" name="language" value={template.language} />
							<IntentButton
								intent="reset-template"
								label={t('templates.reset')}
								pendingLabel={t('templates.resetting')}
								variant="outline"
							/>
						</AppForm>
					) : null}
					<section aria-labelledby="placeholders-heading" className="grid gap-2">
						<h3 id="placeholders-heading" className="text-sm font-medium">
							{t('placeholders.title')}
						</h3>
						<p className="text-sm text-muted-foreground">{t('placeholders.hint')}</p>
						<dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
							{PLACEHOLDERS[template.kind].map((name) => (
								<div key={name} className="contents">
									<dt>
										<code className="rounded bg-muted px-1 py-0.5 text-xs break-all">{`{{${name}}}`}</code>
									</dt>
									<dd className="text-muted-foreground">{t(`placeholders.${name}`)}</dd>
								</div>
							))}
						</dl>
					</section>
				</CardContent>
			</Card>
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('preview.title')}</h2>
					</CardTitle>
					<CardDescription>{t('preview.hint')}</CardDescription>
				</CardHeader>
				<CardContent>
					{preview ? (
						<section aria-label={t('preview.title')} data-testid="template-preview" className="grid min-w-0 gap-3 rounded-md border p-4">
							<p className="font-medium break-words">{t('preview.subject', { subject: preview.subject })}</p>
							{/* The mail's own HTML, made by the server's renderer: every character of the template and the values escaped (app/.server/messaging/render.ts). */}
							<div className="text-sm break-words [&_a]:text-primary [&_a]:underline" dangerouslySetInnerHTML={{ __html: preview.html }} />
						</section>
					) : (
						<p className="text-sm text-muted-foreground">{t('preview.none')}</p>
					)}
				</CardContent>
			</Card>
		</div>
	)
}
