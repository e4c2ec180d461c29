import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { Profile } from '#app/.server/account/profile.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { PicturePicker } from '#app/components/forms/picture-picker.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { languageNames, supportedLanguages } from '#app/lib/i18n.ts'
import { initials } from '#app/lib/initials.ts'
import { profileSchema } from '#app/lib/schemas/settings.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { firstError } from './field-error.ts'

/** The profile card of the profile tab: the picture (upload, remove) and the profile form (name, username, phone, language). */
export function ProfileCard({ profile, lastResult }: { profile: Profile; lastResult: Parameters<typeof useForm>[0]['lastResult'] }) {
	const fmt = useFormat()
	const { t, i18n } = useTranslation('settings')
	const [form, fields] = useForm({
		// A new form after each save (the server and the browser agree on the id): the fields show
		// what was saved (trimmed), not what was typed. A refusal keeps what was typed.
		id: `profile-${Date.parse(profile.updatedAt).toString(36)}`,
		lastResult,
		constraint: getZodConstraint(profileSchema),
		defaultValue: {
			fullName: profile.fullName ?? '',
			username: profile.username ?? '',
			phone: profile.phone ?? '',
			// Never chosen: the language the page is in, so saving something else does not change it.
			preferredLanguage: profile.preferredLanguage ?? i18n.language,
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
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
				<CardTitle>
					<h2>{t('profile.title')}</h2>
				</CardTitle>
				<CardDescription>{t('profile.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-6">
				<PicturePicker
					name="avatar"
					uploadIntent="avatar-upload"
					removeIntent="avatar-remove"
					current={profile.avatarUrl}
					shape="round"
					fallback={initials(profile.fullName, profile.email)}
					testId="settings-avatar"
					labels={{ alt: t('avatar.alt'), choose: t('avatar.choose'), save: t('avatar.upload'), remove: t('avatar.remove') }}
				/>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="profile" />
					<Field
						label={t('profile.fields.fullName')}
						htmlFor={fields.fullName.id}
						errorId={fields.fullName.errorId}
						error={error(fields.fullName.errors)}
					>
						<Input {...getInputProps(fields.fullName, { type: 'text' })} autoComplete="name" />
					</Field>
					<Field
						label={t('profile.fields.username')}
						htmlFor={fields.username.id}
						errorId={fields.username.errorId}
						error={error(fields.username.errors)}
					>
						<Input {...getInputProps(fields.username, { type: 'text' })} autoComplete="username" />
					</Field>
					<Field
						label={t('profile.fields.phone')}
						htmlFor={fields.phone.id}
						errorId={fields.phone.errorId}
						error={error(fields.phone.errors)}
					>
						<Input {...getInputProps(fields.phone, { type: 'tel' })} autoComplete="tel" />
					</Field>
					<Field
						label={t('profile.fields.preferredLanguage')}
						htmlFor={fields.preferredLanguage.id}
						errorId={fields.preferredLanguage.errorId}
						error={error(fields.preferredLanguage.errors)}
					>
						<select
							{...getSelectProps(fields.preferredLanguage)}
							className="h-9 rounded-md border border-input bg-transparent px-3 text-sm"
						>
							{supportedLanguages.map((lng) => (
								<option key={lng} value={lng}>
									{languageNames[lng]}
								</option>
							))}
						</select>
					</Field>
					<p className="text-sm text-muted-foreground">{t('profile.createdAt', { date: fmt.date(profile.createdAt) })}</p>
					<SubmitButton intent="profile" label={t('profile.save')} pendingLabel={t('profile.saving')} className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}
