import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { z } from 'zod'
import { auth } from '#app/.server/auth/port.ts'
import { clientMeta, readSessionToken, requireMember } from '#app/.server/auth/session.ts'
import { supabaseFor } from '#app/.server/auth/supabase.ts'
import { requestEmailChange } from '#app/.server/account/email-change.ts'
import { languageCookie } from '#app/.server/i18n.ts'
import { getProfile, listSessions, removeAvatar, revokeOtherSessions, revokeSession, setAvatar, updateProfile } from '#app/.server/account/profile.ts'
import { pictureRefusalKey } from '#app/.server/images.ts'
import { logError } from '#app/.server/log.ts'
import { allowEvent } from '#app/.server/rate-limit.ts'
import { secureCookies } from '#app/.server/security.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { dateIn } from '#app/lib/dates.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { languageNames, supportedLanguages } from '#app/lib/i18n.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { passwordSchema, profileSchema } from '#app/lib/schemas/settings.ts'
import { EmailChangeCard, emailChangeFormSchema } from './email-change.tsx'
import { firstError } from './field-error.ts'
import type { Route } from './+types/profile'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

const HERE = '/app/settings'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	// The list of sessions is the local adapter's; Supabase Auth keeps its own (the button still ends the others).
	const local = auth().name === 'local'
	const [profile, sessions, reauthentication] = await Promise.all([
		getProfile(user.userId),
		local ? listSessions(user.userId, await readSessionToken(request)) : [],
		auth().reauthentication(request, user),
	])
	// Days in the organization's timezone, as every date on the screens.
	const day = (instant: string) => dateIn(organization.timezone, new Date(instant))
	return {
		profile: { ...profile, createdAt: day(profile.createdAt) },
		sessions: sessions.map((s) => ({ ...s, lastSeen: day(s.lastSeen) })),
		reauthentication,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user } = requireMember(context)
	const formData = await request.formData()
	switch (formData.get('intent')) {
		case 'profile': {
			const submission = parseWithZod(formData, { schema: profileSchema })
			if (submission.status !== 'success') return data({ profile: submission.reply() }, { status: 400 })
			const saved = await updateProfile(user.userId, submission.value)
			if (!saved.ok) return data({ profile: submission.reply({ fieldErrors: { username: ['usernameTaken'] } }) }, { status: 400 })
			// Saving the language also switches the interface.
			const headers = new Headers({ 'set-cookie': await languageCookie.serialize(submission.value.preferredLanguage, { secure: secureCookies() }) })
			return redirectWithToast(HERE, { type: 'success', title: 'settings:profile.saved' }, { headers })
		}
		case 'email-change': {
			// The session alone does not move the account: the current password, or a recent sign-in without one.
			const reauthentication = await auth().reauthentication(request, user)
			const submission = parseWithZod(formData, { schema: emailChangeFormSchema(reauthentication) })
			const reply = (fieldErrors?: Record<string, string[]>) => submission.reply({ fieldErrors, hideFields: ['currentPassword'] })
			if (submission.status !== 'success') return data({ email: reply() }, { status: 400 })
			if (!(await allowEvent('email-change', user.userId, { limit: 5, windowMinutes: 60 }))) {
				return data({ email: reply({ email: ['tooManyAttempts'] }) }, { status: 429 })
			}
			const requested = await requestEmailChange(request, user, {
				email: submission.value.email,
				currentPassword: submission.value.currentPassword ?? null,
				language: user.preferredLanguage,
				...clientMeta(request, context),
			})
			if (!requested.ok) return data({ email: reply(EMAIL_CHANGE_ERRORS[requested.code]) }, { status: 400 })
			return redirectWithToast(HERE, { type: 'success', title: 'settings:email.sent', values: { email: submission.value.email } })
		}
		case 'avatar-upload': {
			const file = formData.get('avatar')
			if (!(file instanceof File) || file.size === 0) {
				return redirectWithToast(HERE, { type: 'error', title: 'settings:avatar.invalidType.title', description: 'settings:avatar.invalidType.description' })
			}
			// The upload budget, the picture's checks and the store-then-record order: images.ts, replacePicture.
			const result = await setAvatar(user.userId, file).catch((error: unknown) => {
				logError(error, { event: 'avatar_upload_failed' })
				return null
			})
			const failed = () => redirectWithToast(HERE, { type: 'error', title: 'settings:avatar.failed.title', description: 'settings:avatar.failed.description' })
			if (!result) return failed()
			if (!result.ok) {
				if (result.code === 'not_found') return failed()
				const key = pictureRefusalKey(result.code)
				return redirectWithToast(HERE, { type: 'error', title: `settings:avatar.${key}.title`, description: `settings:avatar.${key}.description` })
			}
			return redirectWithToast(HERE, { type: 'success', title: 'settings:avatar.updated' })
		}
		case 'avatar-remove': {
			await removeAvatar(user.userId)
			return redirectWithToast(HERE, { type: 'success', title: 'settings:avatar.removed' })
		}
		case 'password': {
			const submission = parseWithZod(formData, { schema: passwordSchema })
			if (submission.status !== 'success') return data({ password: submission.reply({ hideFields: ['currentPassword', 'newPassword', 'confirmPassword'] }) }, { status: 400 })
			if (!(await allowEvent('password-change', user.userId, { limit: 10, windowMinutes: 15 }))) {
				return data({ password: submission.reply({ formErrors: ['tooManyAttempts'], hideFields: ['currentPassword', 'newPassword', 'confirmPassword'] }) }, { status: 429 })
			}
			const changed = await auth().changePassword(
				request,
				{ userId: user.userId, email: user.email },
				{ current: submission.value.currentPassword, next: submission.value.newPassword, ...clientMeta(request, context) },
			)
			if (!changed.ok) {
				const fieldErrors: Record<string, string[]> = changed.code === 'wrong_password' ? { currentPassword: ['currentPasswordWrong'] } : { newPassword: ['passwordRefused'] }
				return data({ password: submission.reply({ fieldErrors, hideFields: ['currentPassword', 'newPassword', 'confirmPassword'] }) }, { status: 400 })
			}
			// The other sessions ended with the change; this browser keeps one (a new one, locally).
			return redirectWithToast(HERE, { type: 'success', title: 'settings:password.updated' }, { headers: changed.headers })
		}
		case 'sign-out-others': {
			if (auth().name === 'supabase') {
				await supabaseFor(request).client.auth.signOut({ scope: 'others' })
				return redirectWithToast(HERE, { type: 'success', title: 'settings:security.signedOutEverywhereElse' })
			}
			const token = await readSessionToken(request)
			if (!token) return errorResponse(403, 'forbidden')
			const count = await revokeOtherSessions(user.userId, token)
			return redirectWithToast(HERE, { type: 'success', title: 'settings:security.signedOutOthers', values: { count } })
		}
		case 'sign-out-session': {
			// Supabase Auth lists no sessions here (the loader's comment), so there is nothing to pick.
			const token = auth().name === 'local' ? await readSessionToken(request) : null
			if (!token) return errorResponse(403, 'forbidden')
			const sessionId = z.uuid().safeParse(formData.get('sessionId'))
			if (!sessionId.success) return errorResponse(400, 'badRequest')
			const outcome = await revokeSession(user.userId, sessionId.data, token)
			return redirectWithToast(HERE, SESSION_TOASTS[outcome])
		}
		default:
			return errorResponse(400, 'badRequest')
	}
}

export default function ProfileTab({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
			<ProfileCard profile={loaderData.profile} lastResult={actionData && 'profile' in actionData ? actionData.profile : undefined} />
			<div className="grid content-start gap-6">
				<EmailChangeCard
					email={loaderData.profile.email}
					reauthentication={loaderData.reauthentication}
					lastResult={actionData && 'email' in actionData ? actionData.email : undefined}
				/>
				<PasswordCard lastResult={actionData && 'password' in actionData ? actionData.password : undefined} />
				<SecurityCard sessions={loaderData.sessions} />
			</div>
		</div>
	)
}

type Loader = Route.ComponentProps['loaderData']

function ProfileCard({ profile, lastResult }: { profile: Loader['profile']; lastResult: Parameters<typeof useForm>[0]['lastResult'] }) {
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
	const initials = (profile.fullName || profile.email).slice(0, 1).toUpperCase()
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('profile.title')}</h2>
				</CardTitle>
				<CardDescription>{t('profile.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-6">
				<div className="flex flex-wrap items-center gap-4">
					{profile.avatarUrl ? (
						<img src={profile.avatarUrl} alt={t('avatar.alt')} width={64} height={64} className="size-16 rounded-full object-cover" data-testid="settings-avatar" />
					) : (
						<span aria-hidden="true" className="flex size-16 items-center justify-center rounded-full bg-muted text-xl font-semibold">
							{initials}
						</span>
					)}
					<div className="grid gap-2">
						<AppForm method="post" encType="multipart/form-data" className="flex flex-wrap items-center gap-2">
							<input type="hidden" name="intent" value="avatar-upload" />
							<label className="sr-only" htmlFor="avatar-file">
								{t('avatar.choose')}
							</label>
							<input id="avatar-file" name="avatar" type="file" accept="image/jpeg,image/png,image/gif" required className="max-w-56 text-sm" aria-describedby="avatar-hint" />
							<SubmitButton intent="avatar-upload" label={t('avatar.upload')} pendingLabel={t('avatar.uploading')} />
						</AppForm>
						<p id="avatar-hint" className="text-xs text-muted-foreground">
							{t('avatar.hint')}
						</p>
						{profile.avatarUrl ? (
							<AppForm method="post">
								<input type="hidden" name="intent" value="avatar-remove" />
								<Button type="submit" variant="outline" size="sm">
									{t('avatar.remove')}
								</Button>
							</AppForm>
						) : null}
					</div>
				</div>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="profile" />
					<Field label={t('profile.fields.fullName')} htmlFor={fields.fullName.id} errorId={fields.fullName.errorId} error={error(fields.fullName.errors)}>
						<Input {...getInputProps(fields.fullName, { type: 'text' })} autoComplete="name" />
					</Field>
					<Field label={t('profile.fields.username')} htmlFor={fields.username.id} errorId={fields.username.errorId} error={error(fields.username.errors)}>
						<Input {...getInputProps(fields.username, { type: 'text' })} autoComplete="username" />
					</Field>
					<Field label={t('profile.fields.phone')} htmlFor={fields.phone.id} errorId={fields.phone.errorId} error={error(fields.phone.errors)}>
						<Input {...getInputProps(fields.phone, { type: 'tel' })} autoComplete="tel" />
					</Field>
					<Field
						label={t('profile.fields.preferredLanguage')}
						htmlFor={fields.preferredLanguage.id}
						errorId={fields.preferredLanguage.errorId}
						error={error(fields.preferredLanguage.errors)}
					>
						<select {...getSelectProps(fields.preferredLanguage)} className="h-9 rounded-md border border-input bg-transparent px-3 text-sm">
							{supportedLanguages.map((lng) => (
								<option key={lng} value={lng}>
									{languageNames[lng]}
								</option>
							))}
						</select>
					</Field>
					<p className="text-sm text-muted-foreground">
						{t('profile.createdAt', { date: fmt.date(profile.createdAt) })}
					</p>
					<SubmitButton intent="profile" label={t('profile.save')} pendingLabel={t('profile.saving')} className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}

function PasswordCard({ lastResult }: { lastResult: Parameters<typeof useForm>[0]['lastResult'] }) {
	const { t } = useTranslation('settings')
	const hydrated = useHydrated()
	const [filled, setFilled] = useState({ currentPassword: false, newPassword: false, confirmPassword: false })
	const [form, fields] = useForm({
		id: 'password',
		lastResult,
		constraint: getZodConstraint(passwordSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const error = (errors: unknown) => {
		const key = firstError(errors)
		return key ? t(`errors.${key}`) : undefined
	}
	const ready = filled.currentPassword && filled.newPassword && filled.confirmPassword
	const field = (name: 'currentPassword' | 'newPassword' | 'confirmPassword', autoComplete: string) => (
		<Field label={t(`password.fields.${name}`)} htmlFor={fields[name].id} errorId={fields[name].errorId} error={error(fields[name].errors)}>
			<Input
				{...getInputProps(fields[name], { type: 'password' })}
				autoComplete={autoComplete}
				onChange={(e) => {
					const hasValue = e.currentTarget.value.length > 0
					setFilled((f) => ({ ...f, [name]: hasValue }))
				}}
			/>
		</Field>
	)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('password.title')}</h2>
				</CardTitle>
				<CardDescription>{t('password.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="password" />
					<FormAlert ns="settings" code={firstError(form.errors)} id={form.errorId} />
					{field('currentPassword', 'current-password')}
					{field('newPassword', 'new-password')}
					{field('confirmPassword', 'new-password')}
					{/* Without JavaScript the button stays enabled; the server enforces the same rule. */}
					<Button type="submit" className="w-fit" disabled={hydrated && !ready}>
						{t('password.update')}
					</Button>
				</AppForm>
			</CardContent>
		</Card>
	)
}

const EMAIL_CHANGE_ERRORS = {
	same_email: { email: ['sameEmail'] },
	email_taken: { email: ['emailTaken'] },
	wrong_password: { currentPassword: ['currentPasswordWrong'] },
	sign_in_again: { email: ['signInAgain'] },
} as const satisfies Record<string, Record<string, string[]>>

const SESSION_TOASTS = {
	ended: { type: 'success', title: 'settings:security.sessionEnded' },
	current: { type: 'error', title: 'settings:security.sessionCurrent' },
	gone: { type: 'info', title: 'settings:security.sessionGone' },
} as const

/** How many sessions the card lists: this device first, then the latest others ("Sign out everywhere else" ends them all). */
const SESSIONS_SHOWN = 5

function SecurityCard({ sessions }: { sessions: Loader['sessions'] }) {
	const fmt = useFormat()
	const { t } = useTranslation('settings')
	const others = sessions.filter((s) => !s.current).length
	const hidden = Math.max(sessions.length - SESSIONS_SHOWN, 0)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('security.title')}</h2>
				</CardTitle>
				<CardDescription>{t('security.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				<ul className="grid gap-2" aria-label={t('security.sessions')}>
					{sessions.slice(0, SESSIONS_SHOWN).map((s) => {
						const device = describeDevice(s.userAgent) ?? t('security.unknownDevice')
						return (
							<li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
								<div className="min-w-0">
									<p className="font-medium break-words">
										{device}
										{s.current ? <span className="ml-2 rounded bg-primary/10 px-1.5 py-0.5 text-xs text-primary">{t('security.thisDevice')}</span> : null}
									</p>
									<p className="text-muted-foreground">{t('security.seen', { address: s.ip ?? '—', date: fmt.date(s.lastSeen) })}</p>
								</div>
								{s.current ? null : (
									<AppForm method="post">
										<input type="hidden" name="intent" value="sign-out-session" />
										<input type="hidden" name="sessionId" value={s.id} />
										<Button type="submit" variant="outline" size="sm" aria-label={t('security.endSession', { device, date: fmt.date(s.lastSeen) })}>
											{t('security.signOut')}
										</Button>
									</AppForm>
								)}
							</li>
						)
					})}
				</ul>
				{hidden > 0 ? <p className="text-sm text-muted-foreground">{t('security.more', { count: hidden })}</p> : null}
				<div className="flex flex-wrap gap-2">
					<AppForm method="post">
						<input type="hidden" name="intent" value="sign-out-others" />
						<Button type="submit" variant="outline" disabled={others === 0}>
							{t('security.signOutOthers')}
						</Button>
					</AppForm>
					<AppForm method="post" action="/auth/sign-out">
						<Button type="submit" variant="destructive">
							{t('security.signOut')}
						</Button>
					</AppForm>
				</div>
			</CardContent>
		</Card>
	)
}

/** "Firefox on Linux" from a user-agent string; null when it names neither. */
function describeDevice(userAgent: string | null) {
	if (!userAgent) return null
	const browser = /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /Chrome\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : null
	const os = /Windows/.test(userAgent) ? 'Windows' : /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Mac OS X/.test(userAgent) ? 'macOS' : /Linux/.test(userAgent) ? 'Linux' : null
	if (!browser && !os) return userAgent.slice(0, 60)
	return [browser, os].filter(Boolean).join(' · ')
}
