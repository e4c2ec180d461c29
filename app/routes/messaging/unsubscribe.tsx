import { data, Form } from 'react-router'
import {
	unsubscribeClient,
	unsubscribeOrganizationName,
	verifyClientUnsubscribe,
	type ClientUnsubscribe,
} from '#app/.server/messaging/unsubscribe.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/unsubscribe'

export const meta = titleMeta('clientUnsubscribe')

/** A valid link: what it names, and its signature (the page's button posts it back). */
type State = { request: (ClientUnsubscribe & { signature: string }) | null; organization: string | null; done: boolean }

/** The link's request and its organization's name, or nothing when the link is not ours or the organization is gone. */
async function read(params: URLSearchParams | FormData): Promise<State> {
	const request = verifyClientUnsubscribe(params)
	const organization = request ? await unsubscribeOrganizationName(request.organizationId) : null
	if (!request || !organization) return { request: null, organization: null, done: false }
	return { request: { ...request, signature: String(params.get('s')) }, organization, done: false }
}

/**
 * The unsubscribe link of a client mail of Reminders & Messaging (docs/product.md, Reminders &
 * Messaging): signed, no sign-in. Opening it only asks (a mail scanner that follows links changes
 * nothing); the page's button posts, as a mail client's one-click unsubscribe (RFC 8058) does to
 * the same address.
 */
export async function loader({ request }: Route.LoaderArgs) {
	return read(new URL(request.url).searchParams)
}

export async function action({ request }: Route.ActionArgs) {
	const url = new URL(request.url)
	const form = await request.formData()
	// One-click posts carry the parameters in the URL; the page's button in the form.
	const state = await read(url.searchParams.has('s') ? url.searchParams : form)
	if (!state.request || !(await unsubscribeClient(state.request))) return data(state, { status: 400 })
	return { ...state, done: true }
}

export default function ClientUnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('messaging')
	const state = actionData ?? loaderData
	if (!state.request) {
		return (
			<AuthCard title={t('unsubscribe.title')} subtitle={t('unsubscribe.invalid')}>
				<span />
			</AuthCard>
		)
	}
	const values = { organization: state.organization, email: state.request.email }
	if (state.done) {
		return (
			<AuthCard title={t('unsubscribe.title')} subtitle={t('unsubscribe.done', values)}>
				<span />
			</AuthCard>
		)
	}
	return (
		<AuthCard title={t('unsubscribe.title')} subtitle={t('unsubscribe.confirm', values)}>
			<Form method="post">
				<input type="hidden" name="o" value={state.request.organizationId} />
				<input type="hidden" name="e" value={state.request.email} />
				<input type="hidden" name="s" value={state.request.signature} />
				<Button type="submit" className="w-full">
					{t('unsubscribe.button')}
				</Button>
			</Form>
		</AuthCard>
	)
}
