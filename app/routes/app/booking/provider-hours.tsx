import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { getProviderHours, requireBookingMember, saveProviderHours } from '#app/.server/booking/staff.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { WeeklyHoursFieldset, weeklyHoursDefaults } from '#app/components/booking/weekly-hours-fieldset.tsx'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { providerHoursSchema } from '#app/lib/schemas/booking.ts'
import type { Route } from './+types/provider-hours'
import { isUuid } from '#app/lib/uuid.ts'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

async function loadProvider(context: Route.LoaderArgs['context'], providerId: string) {
	const { user, organization } = await requireBookingMember(context)
	invariantResponse(isUuid(providerId), 404)
	const provider = await getProviderHours(user.userId, organization.id, providerId)
	if (!provider) errorResponse(404, 'notFound')
	return { user, organization, provider }
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const { provider } = await loadProvider(context, params.providerId)
	return { provider }
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const { user, organization, provider } = await loadProvider(context, params.providerId)
	const submission = parseWithZod(await request.formData(), { schema: providerHoursSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const hours = submission.value.mode === 'own' ? submission.value.hours : null
	await saveProviderHours(user.userId, organization.id, provider.id, hours)
	return redirectWithToast('/app/booking/providers', {
		type: 'success',
		title: 'booking:providerHours.saved',
		description: 'booking:providerHours.savedFor',
		values: { name: provider.displayName },
	})
}

/**
 * A provider's own weekly hours (docs/product.md, Booking): the organization's hours, or hours
 * of their own that narrow them: a slot is offered only inside both, and date overrides apply
 * on top.
 */
export default function ProviderHours({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('booking')
	const { provider } = loaderData
	const [form, fields] = useForm({
		id: 'provider-hours',
		lastResult: actionData?.result,
		constraint: getZodConstraint(providerHoursSchema),
		defaultValue: {
			mode: provider.own ? 'own' : 'organization',
			hours: weeklyHoursDefaults(provider.own ?? provider.organization),
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: providerHoursSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	return (
		<Card>
			<CardHeader>
				<Link
					to="/app/booking/providers"
					className="mb-2 flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
				>
					<ArrowLeftIcon aria-hidden="true" className="size-4" />
					{t('providerHours.back')}
				</Link>
				<CardTitle>
					<h2>{t('providerHours.title', { name: provider.displayName })}</h2>
				</CardTitle>
				<CardDescription>{t('providerHours.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-6">
					<fieldset className="grid min-w-0 grid-cols-1 gap-3">
						<legend className="mb-2 text-sm font-medium">{t('providerHours.modeLegend')}</legend>
						{(['organization', 'own'] as const).map((mode) => (
							<div key={mode} className="flex items-start gap-3">
								<input
									{...getInputProps(fields.mode, { type: 'radio', value: mode })}
									id={`${fields.mode.id}-${mode}`}
									className="mt-0.5 size-4 shrink-0 accent-primary"
								/>
								<div className="grid gap-1">
									<Label htmlFor={`${fields.mode.id}-${mode}`}>{t(`providerHours.mode.${mode}`)}</Label>
									<p className="text-xs text-muted-foreground">{t(`providerHours.modeHint.${mode}`)}</p>
								</div>
							</div>
						))}
					</fieldset>
					<WeeklyHoursFieldset hours={fields.hours} legend={t('providerHours.hoursLegend')} />
					<SubmitButton label={t('providerHours.save')} pendingLabel={t('providerHours.saving')} className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}
