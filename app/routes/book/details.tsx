import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { getLocale } from '#app/.server/i18n.ts'
import {
	bookedUrl,
	bookingAtChoices,
	contactHeaders,
	refusedFormHeaders,
	stepUrl,
	takeRefusedForm,
} from '#app/.server/booking/public/choices.ts'
import { chosenWhen, resolveWizard } from '#app/.server/booking/public/wizard.ts'
import { RefusedNotice, STEP_HEADING, WizardNav, WizardProgress } from '#app/components/booking/book-wizard.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
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
		next: w.contact ? stepUrl(w.org.slug, 'confirm', w.choices) : null,
		// The errors and what was typed, when the form was refused a moment ago.
		result: refused?.result ?? null,
	}
	return data(step, refused ? { headers: refused.headers } : undefined)
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const w = await resolveWizard({ request, context, slug: params.orgSlug }, 'details')
	const formData = await request.formData()
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

export default function DetailsStep({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('book')
	const { chosen, contact, requirePhone, back, next } = loaderData
	const [form, fields] = useForm({
		lastResult: actionData?.result ?? loaderData.result,
		defaultValue: contact ? { ...contact, createAccount: contact.createAccount ? 'on' : undefined } : undefined,
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
				{/* Shown while the page takes bookings, which is whenever this step is reached (decision 007). */}
				<label className="flex items-center gap-2 text-sm">
					<input type="checkbox" name={fields.createAccount.name} defaultChecked={contact?.createAccount ?? false} className="size-4" />
					{t('details.createAccount')}
				</label>
				<div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
					<label>
						{t('details.website')}
						<input type="text" name="website" tabIndex={-1} autoComplete="off" />
					</label>
				</div>
				<SubmitButton
					label={t('details.continue')}
					pendingLabel={t('details.saving')}
					className="justify-self-end bg-[var(--brand)] text-white"
				/>
			</Form>
			<WizardNav step="details" back={back} next={next} />
		</>
	)
}
