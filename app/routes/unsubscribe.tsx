import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form } from 'react-router'
import { asSystem } from '#app/.server/db/index.ts'
import { turnOff, verifyUnsubscribe, type UnsubscribeRequest } from '#app/.server/notifications/index.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/unsubscribe'

export const meta = titleMeta('unsubscribe')

async function organizationName(request: UnsubscribeRequest) {
	const row = await asSystem((trx) =>
		trx.selectFrom('organizations').select('name').where('id', '=', request.organizationId).executeTakeFirst(),
	)
	return row?.name ?? null
}

/**
 * The unsubscribe link of every notification mail (docs/product.md, Settings ›
 * Notifications): signed, no sign-in. Opening it asks; the post turns the toggle off. A mail
 * client's one-click unsubscribe (RFC 8058) posts to the same address.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const params = new URL(request.url).searchParams
	const valid = verifyUnsubscribe(params)
	const organization = valid ? await organizationName(valid) : null
	return { params: valid && organization ? Object.fromEntries(params) : null, kind: valid?.kind ?? null, organization, done: false }
}

export async function action({ request }: Route.ActionArgs) {
	const url = new URL(request.url)
	const form = await request.formData()
	// One-click posts carry the parameters in the URL; the page's button in the form.
	const valid = verifyUnsubscribe(url.searchParams.has('s') ? url.searchParams : form)
	const organization = valid ? await organizationName(valid) : null
	if (!valid || !organization || !(await turnOff(valid.userId, valid.organizationId, valid.kind))) {
		return data({ params: null, kind: null, organization: null, done: false }, { status: 400 })
	}
	return { params: null, kind: valid.kind, organization, done: true }
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('settings')
	const state = actionData ?? loaderData
	const kind = state.kind ? t(`notifications.${state.kind}.label`) : ''
	if (state.done) {
		return (
			<AuthCard title={t('notifications.title')} subtitle={t('notifications.unsubscribe.done', { kind, organization: state.organization })}>
				<p className="text-sm text-muted-foreground">{t('notifications.unsubscribe.settings')}</p>
			</AuthCard>
		)
	}
	if (!state.params) {
		return (
			<AuthCard title={t('notifications.title')} subtitle={t('notifications.unsubscribe.invalid')}>
				<span />
			</AuthCard>
		)
	}
	return (
		<AuthCard
			title={t('notifications.title')}
			subtitle={t('notifications.unsubscribe.confirm', { kind, organization: state.organization })}
		>
			<Form method="post">
				{Object.entries(state.params).map(([name, value]) => (
					<input key={name} type="hidden" name={name} value={value} />
				))}
				<Button type="submit" className="w-full">
					{t('notifications.unsubscribe.button')}
				</Button>
			</Form>
		</AuthCard>
	)
}
