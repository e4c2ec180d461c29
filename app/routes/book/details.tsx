import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { getLocale, languageCookie } from '#app/.server/i18n.ts'
import { secureCookies } from '#app/.server/security.ts'
import {
	bookedUrl,
	bookingAtChoices,
	contactHeaders,
	refusedFormHeaders,
	stepUrl,
	takeRefusedForm,
} from '#app/.server/booking/public/choices.ts'
import { chosenWhen, resolveWizard } from '#app/.server/booking/public/wizard.ts'
import { DETAILS_FORM_ID, RefusedNotice, STEP_HEADING, WizardNav, WizardProgress } from '#app/components/booking/book-wizard.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { isLanguage } from '#app/lib/i18n.ts'
import { contactFormSchema } from '#app/lib/schemas/book.ts'
import type { Route } from './+types/details'

export async function loader({ request, params, context }: Route.LoaderArgs) {
	// Back from the booked page past its confirmation: that booking, not "someone else booked it".
	const done = await bookingAtChoices(request, params.orgSlug)
	if (done) throw redirect(bookedUrl(params.orgSlug, done))
	const w = await resolveWizard({ request, context, slug: params.orgSlug }, 'details')
	const refused = await takeRefusedForm(request, w.org.slug)
	const step = {
		// What the visitor chose, above the form.
		chosen: { service: w.service!.name, provider: w.provider!.displayName, when: chosenWhen(w, getLocale(context)) },
		contact: w.contact,
		requirePhone: w.catalogue.settings.requirePhone,
		back: stepUrl(w.org.slug, 'slot', w.choices),
		// The errors and what was typed, when the form was refused a moment ago.
		result: refused?.result ?? null,
	}
	return data(step, refused ? { headers: refused.headers } : undefined)
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const w = await resolveWizard({ request, context, slug: params.orgSlug }, 'details')
	const formData = await request.formData()
	// The language menu posted this form: the step again in that language, with what was typed.
	const language = formData.get('switchLanguage')
	if (typeof language === 'string') return switchLanguage(w.org.slug, stepUrl(w.org.slug, 'details', w.choices), formData, language)
	const schema = contactFormSchema(w.catalogue.settings.requirePhone)
	const submission = parseWithZod(formData, { schema })
	const honeypot = Boolean(formData.get('website'))
	const refuse = async (result: SubmissionResult<string[]>) => {
		// Post, redirect, get: without JavaScript, Back from the next step does not post the form again.
		const headers = await refusedFormHeaders(w.org.slug, result)
		return headers ? redirect(stepUrl(w.org.slug, 'details', w.choices), { headers }) : data({ result }, { status: 400 })
	}
	if (honeypot || submission.status !== 'success') return refuse(submission.reply(honeypot ? { formErrors: ['honeypot'] } : undefined))
	const headers = await contactHeaders(w.org.slug, submission.value)
	if (!headers) return refuse(submission.reply({ fieldErrors: { notes: ['notesTooLongToKeep'] } }))
	return redirect(stepUrl(w.org.slug, 'confirm', w.choices), { headers })
}

const TYPED = ['name', 'email', 'phone', 'notes'] as const

/**
 * The language menu's post of the details form: sets the language (as /preferences does) and
 * shows the step again with what was typed, unchecked and saved nowhere but the five-minute
 * cookie of a refused form (in place when too long for it). An unknown language changes nothing.
 */
async function switchLanguage(slug: string, step: string, formData: FormData, language: string) {
	const headers = new Headers()
	if (isLanguage(language)) headers.append('set-cookie', await languageCookie.serialize(language, { secure: secureCookies() }))
	const typed = Object.fromEntries(
		TYPED.map((k) => [k, formData.get(k)]).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length <= 5000),
	)
	const result: SubmissionResult<string[]> = { initialValue: typed }
	const carried = await refusedFormHeaders(slug, result)
	if (!carried) return data({ result }, { headers })
	for (const cookie of carried.getSetCookie()) headers.append('set-cookie', cookie)
	return redirect(step, { headers })
}

export default function DetailsStep({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('book')
	const { chosen, contact, requirePhone, back } = loaderData
	const [form, fields] = useForm({
		id: DETAILS_FORM_ID,
		lastResult: actionData?.result ?? loaderData.result,
		defaultValue: contact ?? undefined,
		// Validated on the server only: the same messages, and no schema library in the page's JavaScript.
	})
	const err = (errors: string[] | undefined) => (errors?.[0] ? t(`errors.${errors[0]}`) : undefined)
	return (
		<>
			<WizardProgress step="details" />
			<h1 className={STEP_HEADING}>{t('details.heading')}</h1>
			<div className="grid gap-1 rounded-lg border bg-background p-4 text-sm">
				<p className="font-medium">{chosen.service}</p>
				<p>{chosen.when}</p>
				<p>{t('booked.with', { provider: chosen.provider })}</p>
			</div>
			<RefusedNotice code={form.errors?.[0] ?? null} />
			<Form method="post" {...getFormProps(form)} className="grid gap-4 rounded-lg border bg-background p-4">
				<Field label={t('details.name')} htmlFor={fields.name.id} error={err(fields.name.errors)} errorId={fields.name.errorId}>
					<Input {...getInputProps(fields.name, { type: 'text' })} autoComplete="name" />
				</Field>
				<Field label={t('details.email')} htmlFor={fields.email.id} error={err(fields.email.errors)} errorId={fields.email.errorId}>
					<Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
				</Field>
				<Field
					label={requirePhone ? t('details.phone') : t('details.phoneOptional')}
					htmlFor={fields.phone.id}
					error={err(fields.phone.errors)}
					errorId={fields.phone.errorId}
				>
					<Input {...getInputProps(fields.phone, { type: 'tel' })} autoComplete="tel" />
				</Field>
				<Field label={t('details.notes')} htmlFor={fields.notes.id} error={err(fields.notes.errors)} errorId={fields.notes.errorId}>
					<Textarea {...getTextareaProps(fields.notes)} rows={3} />
				</Field>
				<div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
					<label>
						{t('details.website')}
						<input type="text" name="website" tabIndex={-1} autoComplete="off" />
					</label>
				</div>
				<SubmitButton
					label={t('details.continue')}
					pendingLabel={t('details.saving')}
					className="h-11 justify-self-end bg-[var(--brand)] text-white"
				/>
			</Form>
			<WizardNav back={back} />
		</>
	)
}
