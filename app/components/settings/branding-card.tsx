import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import type { OrganizationSettings } from '#app/.server/organizations/settings.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { PicturePicker } from '#app/components/forms/picture-picker.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { brandContrastWarnings, brandingSchema, contrastRatio } from '#app/lib/schemas/settings.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { firstError } from './field-error.ts'

/** The branding card of the organization tab (owners): the logo, the two brand colours with a preview, and a warning when white text would be hard to read on them. */
export function BrandingCard({
	settings,
	lastResult,
}: {
	settings: OrganizationSettings
	lastResult: Parameters<typeof useForm>[0]['lastResult']
}) {
	const { t } = useTranslation('settings')
	const [colors, setColors] = useState(settings.brandColors)
	const [form, fields] = useForm({
		id: 'branding',
		lastResult,
		constraint: getZodConstraint(brandingSchema),
		defaultValue: settings.brandColors,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: brandingSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const valid = (v: string) => /^#[0-9a-fA-F]{6}$/.test(v)
	const shown = {
		primary: valid(colors.primary) ? colors.primary : settings.brandColors.primary,
		secondary: valid(colors.secondary) ? colors.secondary : settings.brandColors.secondary,
	}
	const warnings = brandContrastWarnings(shown)
	const colorField = (name: 'primary' | 'secondary') => (
		<Field
			label={t(`branding.${name}`)}
			htmlFor={fields[name].id}
			errorId={fields[name].errorId}
			error={firstError(fields[name].errors) ? t(`errors.${firstError(fields[name].errors)}`) : undefined}
		>
			<div className="flex items-center gap-2">
				<input
					type="color"
					aria-label={t('branding.picker', { name: t(`branding.${name}`) })}
					value={shown[name]}
					onChange={(e) => {
						const value = e.currentTarget.value
						setColors((c) => ({ ...c, [name]: value }))
					}}
					className="h-9 w-12 cursor-pointer rounded border"
					tabIndex={-1}
				/>
				<Input
					id={fields[name].id}
					name={fields[name].name}
					aria-invalid={fields[name].errors ? true : undefined}
					aria-describedby={fields[name].errors ? fields[name].errorId : undefined}
					value={colors[name]}
					onChange={(e) => {
						const value = e.currentTarget.value
						setColors((c) => ({ ...c, [name]: value }))
					}}
					className="font-mono"
					maxLength={7}
				/>
			</div>
		</Field>
	)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('branding.title')}</h2>
				</CardTitle>
				<CardDescription>{t('branding.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-6">
				<PicturePicker
					name="logo"
					uploadIntent="logo-upload"
					removeIntent="logo-remove"
					current={settings.logoUrl}
					shape="box"
					testId="org-logo"
					labels={{
						alt: t('branding.logoAlt'),
						choose: t('branding.logoChoose'),
						save: t('branding.logoUpload'),
						remove: t('branding.logoRemove'),
					}}
				/>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="branding" />
					<div className="grid gap-4 sm:grid-cols-2">
						{colorField('primary')}
						{colorField('secondary')}
					</div>
					<div className="grid gap-2">
						<p className="text-sm font-medium">{t('branding.preview')}</p>
						<div className="flex gap-2 rounded-md border p-4" data-testid="brand-preview">
							<span className="rounded-md px-4 py-2 text-sm font-medium text-white" style={{ backgroundColor: shown.primary }}>
								{t('branding.previewButton')}
							</span>
							<span className="rounded-md px-4 py-2 text-sm font-medium text-white" style={{ backgroundColor: shown.secondary }}>
								{t('branding.previewSecondary')}
							</span>
						</div>
						{warnings.map((which) => (
							<p key={which} role="status" className="text-sm text-amber-700 dark:text-amber-400">
								{t('branding.contrastWarning', {
									which: t(`branding.which.${which}`),
									ratio: contrastRatio(shown[which], '#ffffff').toFixed(1),
								})}
							</p>
						))}
					</div>
					<SubmitButton intent="branding" label={t('branding.save')} pendingLabel={t('organization.saving')} className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}
