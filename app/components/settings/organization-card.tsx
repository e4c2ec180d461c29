import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { OrganizationSettings } from '#app/.server/organizations/settings.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { TimezoneSelect } from '#app/components/forms/timezone-select.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import type { Role } from '#app/lib/roles.ts'
import { organizationSchema } from '#app/lib/schemas/settings.ts'
import { US_STATES } from '#app/lib/tax-year.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { firstError } from './field-error.ts'

type Props = {
	settings: OrganizationSettings
	role: Role
	gears: { owned: number; remaining: number }
	/** The public booking page's address, which a new slug changes. */
	bookingUrl: string
	owner: boolean
	lastResult: Parameters<typeof useForm>[0]['lastResult']
}

/** The organization card of its tab: name, role and gears for everyone; the form (name, description, slug, timezone) for owners. */
export function OrganizationCard({ settings, role, gears, bookingUrl, owner, lastResult }: Props) {
	const fmt = useFormat()
	const { t } = useTranslation('settings')
	const { t: tc } = useTranslation()
	const { t: tt } = useTranslation('tax-year')
	const [form, fields] = useForm({
		id: 'organization',
		lastResult,
		constraint: getZodConstraint(organizationSchema),
		defaultValue: {
			name: settings.name,
			description: settings.description ?? '',
			slug: settings.slug,
			timezone: settings.timezone,
			state: settings.state ?? '',
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: organizationSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const error = (errors: unknown) => {
		const key = firstError(errors)
		return key ? t(`errors.${key}`) : undefined
	}
	return (
		<Card>
			<CardHeader>
				<CardTitle className="flex flex-wrap items-center gap-2">
					<h2>{settings.name}</h2>
					<Badge variant={owner ? 'default' : 'secondary'} data-testid="role-badge">
						{tc(`roles.${role}`)}
					</Badge>
				</CardTitle>
				<CardDescription>
					{t('organization.gears', { remaining: fmt.number(gears.remaining), owned: fmt.number(gears.owned) })}
				</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				{settings.description ? <p className="text-sm whitespace-pre-line">{settings.description}</p> : null}
				{owner ? (
					<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
						<input type="hidden" name="intent" value="organization" />
						<Field
							label={t('organization.fields.name')}
							htmlFor={fields.name.id}
							errorId={fields.name.errorId}
							error={error(fields.name.errors)}
						>
							<Input {...getInputProps(fields.name, { type: 'text' })} />
						</Field>
						<Field
							label={t('organization.fields.description')}
							htmlFor={fields.description.id}
							errorId={fields.description.errorId}
							error={error(fields.description.errors)}
						>
							<Textarea {...getTextareaProps(fields.description)} rows={3} />
						</Field>
						<Field
							label={t('organization.fields.slug')}
							htmlFor={fields.slug.id}
							errorId={fields.slug.errorId}
							error={error(fields.slug.errors)}
						>
							<Input {...getInputProps(fields.slug, { type: 'text' })} aria-describedby={`${fields.slug.id}-hint`} />
							<p id={`${fields.slug.id}-hint`} className="text-xs text-muted-foreground">
								{t('organization.slugWarning', { url: bookingUrl })}
							</p>
						</Field>
						<Field
							label={t('organization.fields.timezone')}
							htmlFor={fields.timezone.id}
							errorId={fields.timezone.errorId}
							error={error(fields.timezone.errors)}
						>
							<TimezoneSelect field={fields.timezone} hintId={`${fields.timezone.id}-hint`} />
							<p id={`${fields.timezone.id}-hint`} className="text-xs text-muted-foreground">
								{t('organization.timezoneHint')}
							</p>
						</Field>
						<Field label={tt('settings.state')} htmlFor={fields.state.id} errorId={fields.state.errorId} error={error(fields.state.errors)}>
							<NativeSelect {...getSelectProps(fields.state)} aria-describedby={`${fields.state.id}-hint`} className="w-full sm:w-72">
								<option value="">{tt('settings.stateNone')}</option>
								{US_STATES.map((code) => (
									<option key={code} value={code}>
										{tt(`states.${code}`)}
									</option>
								))}
							</NativeSelect>
							<p id={`${fields.state.id}-hint`} className="text-xs text-muted-foreground">
								{tt('settings.stateHint')}
							</p>
						</Field>
						<SubmitButton intent="organization" label={t('organization.save')} pendingLabel={t('organization.saving')} className="w-fit" />
					</AppForm>
				) : (
					<p className="text-sm text-muted-foreground">{t('organization.ownerOnly')}</p>
				)}
			</CardContent>
		</Card>
	)
}
