import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { requireUser } from '#app/.server/auth/session.ts'
import { createOrganization, currentOrganizationCookie, listMemberships, newOrganizationZone } from '#app/.server/organizations/current.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { NewOrganizationZone } from '#app/components/forms/timezone-select.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { newOrganizationSchema } from '#app/lib/schemas/onboarding.ts'
import type { Route } from './+types/onboarding'

const schema = newOrganizationSchema

export const meta = titleMeta('onboarding')

/** A signed-in user without any organization creates one here (never a broken dashboard). */
export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const { memberships } = await listMemberships(user.userId)
	if (memberships.length > 0) throw redirect('/app/dashboard')
	return null
}

/** The same rule as the loader (and the SQL function): only a user without an organization creates one here. */
export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	const { memberships } = await listMemberships(user.userId)
	if (memberships.length > 0) throw redirect('/app/dashboard')
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	// The browser's zone (or the one picked without JavaScript); one outside the list creates nothing.
	const zone = newOrganizationZone(formData.get('timezone'))
	if (!zone.ok) return data({ result: submission.reply(), timezoneInvalid: true }, { status: 400 })
	const created = await createOrganization(user.userId, submission.value.name, zone.zone)
	if (!created.ok && created.code === 'already_member') throw redirect('/app/dashboard')
	if (!created.ok) return data({ result: submission.reply({ fieldErrors: { name: ['nameRequired'] } }) }, { status: 400 })
	return redirectWithToast(
		'/app/dashboard',
		{ type: 'success', title: 'onboarding.created', values: { name: submission.value.name } },
		{ headers: { 'set-cookie': await currentOrganizationCookie(created.id) } },
	)
}

export default function Onboarding({ actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: 'onboarding',
		lastResult: actionData?.result,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
		shouldValidate: 'onSubmit',
	})
	return (
		<AuthCard title={t('onboarding.title')} subtitle={t('onboarding.subtitle')}>
			<Form method="post" {...getFormProps(form)} noValidate className="grid gap-4">
				<Field
					label={t('onboarding.name')}
					htmlFor={fields.name.id}
					errorId={fields.name.errorId}
					error={fields.name.errors ? t(`onboarding.errors.${fields.name.errors[0]}`) : undefined}
				>
					<Input {...getInputProps(fields.name, { type: 'text' })} autoComplete="organization" />
				</Field>
				<NewOrganizationZone
					label={t('onboarding.timezone')}
					error={actionData && 'timezoneInvalid' in actionData ? t('onboarding.errors.timezoneInvalid') : undefined}
				/>
				<SubmitButton label={t('onboarding.submit')} pendingLabel={t('onboarding.submitting')} />
			</Form>
			<Form method="post" action="/auth/sign-out" className="text-center">
				<Button type="submit" variant="link" size="sm">
					{t('actions.signOut')}
				</Button>
			</Form>
		</AuthCard>
	)
}
