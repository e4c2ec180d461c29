import { requireMember } from '#app/.server/auth/session.ts'
import { clearPendingCookie, finishGmailConnect, readPending } from '#app/.server/payments/email-sync/gmail.ts'
import { saveConnection } from '#app/.server/payments/email-sync/connections.ts'
import { integrationToast } from '#app/.server/marketplace/toasts.ts'
import { safeRedirect } from '#app/.server/security.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { isOwner } from '#app/lib/roles.ts'
import type { Route } from './+types/integrations-google-callback'

/**
 * Google's return to the app after the owner granted (or refused) read-only Gmail access
 * (docs/product.md, Integrations). The state must match the cookie set when the owner clicked
 * Connect, in the same organization; the tokens are sealed and saved through connect_integration.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const member = requireMember(context)
	const pending = await readPending(request)
	const headers = { 'set-cookie': await clearPendingCookie() }
	const fail = (back: string, message: string) =>
		redirectWithToast(back, integrationToast('error', 'connectFailed', message, { service: 'Gmail' }), { headers })
	if (!pending || pending.organizationId !== member.organization.id || !isOwner(member.organization.role)) {
		return fail('/app/module-marketplace', 'marketplace:integrations.toasts.stateMismatch')
	}
	const back = safeRedirect(pending.back, '/app/module-marketplace')
	if (new URL(request.url).searchParams.get('error')) return fail(back, 'marketplace:integrations.toasts.accessDenied')
	let grant
	try {
		grant = await finishGmailConnect(request, pending)
	} catch {
		return fail(back, 'marketplace:integrations.toasts.exchangeFailed')
	}
	const saved = await saveConnection(member.user.userId, member.organization.id, pending.upgradeId, {
		provider: 'gmail',
		account: grant.email,
		accessToken: grant.accessToken,
		refreshToken: grant.refreshToken,
		expiresAt: grant.expiresAt,
	})
	if (!saved.ok)
		return fail(
			back,
			saved.code === 'mailbox_limit' ? 'marketplace:integrations.errors.mailboxLimit' : 'marketplace:integrations.toasts.saveFailed',
		)
	return redirectWithToast(back, integrationToast('success', 'connected', undefined, { provider: 'Gmail' }), { headers })
}
