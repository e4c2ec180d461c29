import { useTranslation } from '#app/lib/use-translation.ts'

import { requireMember } from '#app/.server/auth/session.ts'
import { getPreferences, savePreferences } from '#app/.server/notifications/index.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { NOTIFICATION_KINDS } from '#app/lib/schemas/settings.ts'
import type { Route } from './+types/notifications'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	return { preferences: await getPreferences(user.userId, organization.id), organizationName: organization.name }
}

/** The three toggles are checkboxes of one form: a box left unticked is off. */
export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	const formData = await request.formData()
	if (formData.get('intent') !== 'notifications') return errorResponse(400, 'badRequest')
	const on = (name: string) => formData.get(name) === 'on'
	const saved = await savePreferences(user.userId, organization.id, {
		emailNotifications: on('emailNotifications'),
		transactionAlerts: on('transactionAlerts'),
		weeklyReports: on('weeklyReports'),
	})
	if (!saved) return errorResponse(403, 'notMember')
	return redirectWithToast('/app/settings/notifications', { type: 'success', title: 'settings:notifications.saved' })
}

export default function NotificationsTab({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('settings')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('notifications.title')}</h2>
				</CardTitle>
				<CardDescription>{t('notifications.description', { name: loaderData.organizationName })}</CardDescription>
			</CardHeader>
			<CardContent>
				<AppForm method="post" className="grid gap-4">
					<input type="hidden" name="intent" value="notifications" />
					{NOTIFICATION_KINDS.map((kind) => (
						<div key={kind} className="flex items-start gap-3">
							<input
								id={`pref-${kind}`}
								name={kind}
								type="checkbox"
								defaultChecked={loaderData.preferences[kind]}
								className="mt-0.5 size-4 shrink-0 accent-primary"
								aria-describedby={`pref-${kind}-hint`}
							/>
							<div className="grid gap-1">
								<label htmlFor={`pref-${kind}`} className="text-sm font-medium">
									{t(`notifications.${kind}.label`)}
								</label>
								<p id={`pref-${kind}-hint`} className="text-xs text-muted-foreground">
									{t(`notifications.${kind}.hint`)}
								</p>
							</div>
						</div>
					))}
					<SubmitButton intent="notifications" label={t('notifications.save')} pendingLabel={t('profile.saving')} className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}
