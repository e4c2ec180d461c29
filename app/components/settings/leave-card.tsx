import { useSearchParams } from 'react-router'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

const ORGANIZATION_TAB = '/app/settings/organization'
/** Leaving asks first, on a page of its own (`?leave=1`, works without JavaScript); the Members tab links here too. */
export const LEAVE_QUESTION = `${ORGANIZATION_TAB}?leave=1`

/** "Leave organization" on the organization tab, for every member: a button, then (at `?leave=1`) the question. */
export function LeaveCard({ organizationName }: { organizationName: string }) {
	const { t } = useTranslation('settings')
	if (useSearchParams()[0].get('leave') === '1') {
		return (
			<ConfirmCard
				id="leave-title"
				title={t('members.leaveQuestion', { organization: organizationName })}
				description={t('members.leaveHint')}
				keep={{ to: ORGANIZATION_TAB, label: t('members.stay') }}
			>
				<AppForm method="post" action={ORGANIZATION_TAB}>
					<input type="hidden" name="intent" value="leave" />
					<Button type="submit" variant="destructive">
						{t('members.leaveConfirm')}
					</Button>
				</AppForm>
			</ConfirmCard>
		)
	}
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('members.leave')}</h2>
				</CardTitle>
				<CardDescription>{t('members.leaveHint')}</CardDescription>
			</CardHeader>
			<CardContent>
				<Button asChild variant="outline">
					<Link to={LEAVE_QUESTION}>{t('members.leave')}</Link>
				</Button>
			</CardContent>
		</Card>
	)
}
