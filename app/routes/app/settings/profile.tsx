import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { requestEmailChange } from '#app/.server/account/email-change.ts'
import { getProfile, removeAvatar, setAvatar, updateProfile } from '#app/.server/account/profile.ts'
import { auth } from '#app/.server/auth/port.ts'
import { clientMeta, requireMember } from '#app/.server/auth/session.ts'
import { languageCookie } from '#app/.server/i18n.ts'
import { pictureRefusalKey } from '#app/.server/images.ts'
import { logError } from '#app/.server/log.ts'
import type { CurrentMember } from '#app/.server/organizations/current.ts'
import { allowEvent } from '#app/.server/rate-limit.ts'
import { secureCookies } from '#app/.server/security.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { EmailChangeCard } from '#app/components/settings/email-change-card.tsx'
import { PasswordCard } from '#app/components/settings/password-card.tsx'
import { ProfileCard } from '#app/components/settings/profile-card.tsx'
import { SecurityCard } from '#app/components/settings/security-card.tsx'
import { dateIn, dateTimeIn } from '#app/lib/dates.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { emailChangeFormSchema, passwordSchema, profileSchema } from '#app/lib/schemas/settings.ts'
import type { Route } from './+types/profile'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

const HERE = '/app/settings'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const [profile, sessions, reauthentication] = await Promise.all([
		getProfile(user.userId),
		// The sessions the auth adapter can list: none with Supabase Auth (its "Sign out everywhere else" still works).
		auth().listSessions(request, user),
		auth().reauthentication(request, user),
	])
	// Days and times in the organization's timezone, as every date on the screens.
	const day = (instant: string) => dateIn(organization.timezone, new Date(instant))
	const when = (instant: string) => dateTimeIn(organization.timezone, new Date(instant))
	return {
		profile: { ...profile, createdAt: day(profile.createdAt) },
		sessions: sessions.map((s) => ({ ...s, signedInAt: when(s.signedInAt), lastSeen: when(s.lastSeen) })),
		reauthentication,
	}
}

/** What each intent's handler works with. */
type Intent = { request: Request; context: Route.ActionArgs['context']; user: CurrentMember['user']; formData: FormData }

export async function action({ request, context }: Route.ActionArgs) {
	const { user } = requireMember(context)
	const intent: Intent = { request, context, user, formData: await request.formData() }
	switch (intent.formData.get('intent')) {
		case 'profile':
			return saveProfile(intent)
		case 'email-change':
			return changeEmail(intent)
		case 'avatar-upload':
			return uploadAvatar(intent)
		case 'avatar-remove':
			return deleteAvatar(intent)
		case 'password':
			return changePassword(intent)
		case 'sign-out-others':
			return signOutOthers(intent)
		case 'sign-out-session':
			return signOutSession(intent)
		default:
			return errorResponse(400, 'badRequest')
	}
}

/** Name, username, phone and language; saving the language also switches the interface. */
async function saveProfile({ user, formData }: Intent) {
	const submission = parseWithZod(formData, { schema: profileSchema })
	if (submission.status !== 'success') return data({ profile: submission.reply() }, { status: 400 })
	const saved = await updateProfile(user.userId, submission.value)
	if (!saved.ok) return data({ profile: submission.reply({ fieldErrors: { username: ['usernameTaken'] } }) }, { status: 400 })
	const headers = new Headers({
		'set-cookie': await languageCookie.serialize(submission.value.preferredLanguage, { secure: secureCookies() }),
	})
	return redirectWithToast(HERE, { type: 'success', title: 'settings:profile.saved' }, { headers })
}

const EMAIL_CHANGE_ERRORS = {
	same_email: { email: ['sameEmail'] },
	email_taken: { email: ['emailTaken'] },
	wrong_password: { currentPassword: ['currentPasswordWrong'] },
	sign_in_again: { email: ['signInAgain'] },
} as const satisfies Record<string, Record<string, string[]>>

/** Mails a confirmation link to the new address; the session alone does not move the account (the current password, or a recent sign-in without one). */
async function changeEmail({ request, context, user, formData }: Intent) {
	const reauthentication = await auth().reauthentication(request, user)
	const submission = parseWithZod(formData, { schema: emailChangeFormSchema(reauthentication) })
	const reply = (fieldErrors?: Record<string, string[]>) => submission.reply({ fieldErrors, hideFields: ['currentPassword'] })
	if (submission.status !== 'success') return data({ email: reply() }, { status: 400 })
	if (!(await allowEvent('email-change', user.userId))) {
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

/** A new picture; the upload budget, the picture's checks and the store-then-record order: images.ts, replacePicture. */
async function uploadAvatar({ user, formData }: Intent) {
	const file = formData.get('avatar')
	if (!(file instanceof File) || file.size === 0) {
		return redirectWithToast(HERE, {
			type: 'error',
			title: 'settings:avatar.invalidType.title',
			description: 'settings:avatar.invalidType.description',
		})
	}
	const result = await setAvatar(user.userId, file).catch((error: unknown) => {
		logError(error, { event: 'avatar_upload_failed' })
		return null
	})
	const failed = () =>
		redirectWithToast(HERE, { type: 'error', title: 'settings:avatar.failed.title', description: 'settings:avatar.failed.description' })
	if (!result) return failed()
	if (!result.ok) {
		if (result.code === 'not_found') return failed()
		const key = pictureRefusalKey(result.code)
		return redirectWithToast(HERE, {
			type: 'error',
			title: `settings:avatar.${key}.title`,
			description: `settings:avatar.${key}.description`,
		})
	}
	return redirectWithToast(HERE, { type: 'success', title: 'settings:avatar.updated' })
}

async function deleteAvatar({ user }: Intent) {
	await removeAvatar(user.userId)
	return redirectWithToast(HERE, { type: 'success', title: 'settings:avatar.removed' })
}

const PASSWORD_FIELDS = ['currentPassword', 'newPassword', 'confirmPassword']

/** The other sessions end with the change; this browser keeps one (a new one, locally). */
async function changePassword({ request, context, user, formData }: Intent) {
	const submission = parseWithZod(formData, { schema: passwordSchema })
	if (submission.status !== 'success') return data({ password: submission.reply({ hideFields: PASSWORD_FIELDS }) }, { status: 400 })
	if (!(await allowEvent('password-change', user.userId))) {
		return data({ password: submission.reply({ formErrors: ['tooManyAttempts'], hideFields: PASSWORD_FIELDS }) }, { status: 429 })
	}
	const changed = await auth().changePassword(request, user, {
		current: submission.value.currentPassword,
		next: submission.value.newPassword,
		...clientMeta(request, context),
	})
	if (!changed.ok) {
		const fieldErrors: Record<string, string[]> =
			changed.code === 'wrong_password' ? { currentPassword: ['currentPasswordWrong'] } : { newPassword: ['passwordRefused'] }
		return data({ password: submission.reply({ fieldErrors, hideFields: PASSWORD_FIELDS }) }, { status: 400 })
	}
	return redirectWithToast(HERE, { type: 'success', title: 'settings:password.updated' }, { headers: changed.headers })
}

/** "Sign out everywhere else": how many ended, where the auth adapter says. */
async function signOutOthers({ request, user }: Intent) {
	const ended = await auth().endOtherSessions(request, user)
	if (!ended.ok) return errorResponse(403, 'forbidden')
	if (ended.count === null) return redirectWithToast(HERE, { type: 'success', title: 'settings:security.signedOutEverywhereElse' })
	return redirectWithToast(HERE, { type: 'success', title: 'settings:security.signedOutOthers', values: { count: ended.count } })
}

const SESSION_TOASTS = {
	ended: { type: 'success', title: 'settings:security.sessionEnded' },
	current: { type: 'error', title: 'settings:security.sessionCurrent' },
	gone: { type: 'info', title: 'settings:security.sessionGone' },
} as const

/** "Sign out" beside one session of the list; a forged post gets 403 (no session to pick from) or 400 (not a session id). */
async function signOutSession({ request, user, formData }: Intent) {
	const sessionId = formData.get('sessionId')
	const outcome = await auth().endSession(request, user, typeof sessionId === 'string' ? sessionId : '')
	if (outcome === 'no_session') return errorResponse(403, 'forbidden')
	if (outcome === 'invalid_id') return errorResponse(400, 'badRequest')
	return redirectWithToast(HERE, SESSION_TOASTS[outcome])
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
