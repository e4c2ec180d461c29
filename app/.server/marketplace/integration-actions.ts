/**
 * The forms of the module screen's integration card and email sync (docs/product.md,
 * Integrations; Email sync): connect an IMAP mailbox, connect Gmail, check a connection again,
 * disconnect it, sync now. One handler per intent; the module route dispatches to them.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { isOwner } from '#app/lib/roles.ts'
import { imapConnectSchema, INTEGRATION_INTENTS, integrationActionSchema } from '#app/lib/schemas/integrations.ts'
import type { CurrentMember } from '../organizations/current.ts'
import { connectImap, disconnectIntegration, refreshIntegration } from '../payments/email-sync/connections.ts'
import { checkGmail, startGmailConnect } from '../payments/email-sync/gmail.ts'
import { syncMailbox, syncToast } from '../payments/email-sync/sync.ts'
import { allowEvent } from '../rate-limit.ts'
import { redirectWithToast } from '../toast.ts'
import { activeMailUpgrade, type FoundModule } from './module-page.ts'
import { integrationToast } from './toasts.ts'

/** An owner's post on the card: who, where the page is, and the email upgrade when it is active. */
type CardPost = { userId: string; organizationId: string; mailUpgradeId: string | undefined; back: string }

/** Whether the form's intent is one of the integration card's. */
export function isIntegrationIntent(intent: FormDataEntryValue | null) {
	return (INTEGRATION_INTENTS as readonly unknown[]).includes(intent)
}

/** Sync now: any member may sync, as with Sync on the Transactions page (docs/product.md, Email sync). */
export async function syncNow(member: CurrentMember, back: string) {
	const result = await syncMailbox(member.organization.id, { trigger: 'button', userId: member.user.userId })
	return redirectWithToast(back, syncToast(result))
}

/**
 * The integration card's forms: owners only, so a forged post changes nothing and stores
 * nothing (docs/product.md, Roles); the IMAP form answers with field errors (the password never
 * sent back), the rest with a toast. `found` is the module as the catalogue names it.
 */
export async function integrationAction(member: CurrentMember, found: FoundModule, formData: FormData, back: string) {
	if (!isOwner(member.organization.role)) return data({ denied: true, error: null }, { status: 403 })
	const post: CardPost = {
		userId: member.user.userId,
		organizationId: member.organization.id,
		mailUpgradeId: activeMailUpgrade(found.upgrades)?.id,
		back,
	}
	if (formData.get('intent') === 'connectImap') return connectImapMailbox(post, formData)
	const submission = parseWithZod(formData, { schema: integrationActionSchema })
	if (submission.status !== 'success') return data({ denied: false, error: 'badRequest' as const }, { status: 400 })
	const value = submission.value
	switch (value.intent) {
		case 'connectGoogle':
			return connectGoogle(post)
		case 'refreshIntegration':
			return checkConnection(post, value.credentialId)
		case 'disconnectIntegration':
			return disconnect(post, found, value.credentialId)
	}
}

/** Connects an IMAP mailbox after a check of its login; refusals come back as the form's errors. */
async function connectImapMailbox(post: CardPost, formData: FormData) {
	const submission = parseWithZod(formData, { schema: imapConnectSchema })
	const reply = (formErrors?: string[]) => data({ imap: submission.reply({ formErrors, hideFields: ['password'] }) }, { status: 400 })
	if (submission.status !== 'success') return reply()
	if (!post.mailUpgradeId) return reply(['integrations.toasts.saveFailed'])
	if (!(await allowEvent('integration-check', post.organizationId))) return reply(['integrations.toasts.tooManyAttempts'])
	const { host, port, tls, user, password } = submission.value
	const result = await connectImap(post.userId, post.organizationId, post.mailUpgradeId, { host, port, tls: tls ?? false, user, password })
	if ('failure' in result) return reply([`integrations.failures.${result.failure}`])
	// A 6th mailbox with Email Pro is refused by connect_integration (without it a new mailbox replaces the old one).
	if (!result.ok) return reply([result.code === 'mailbox_limit' ? 'integrations.errors.mailboxLimit' : 'integrations.toasts.saveFailed'])
	return redirectWithToast(post.back, integrationToast('success', 'connected', undefined, { provider: user }))
}

/** Sends the owner to Google's consent screen (read-only Gmail); app/routes/app/integrations-google-callback.ts finishes it. */
async function connectGoogle(post: CardPost) {
	const failed = (description: string) =>
		redirectWithToast(post.back, integrationToast('error', 'connectFailed', description, { service: 'Gmail' }))
	if (!post.mailUpgradeId) return failed('marketplace:integrations.toasts.saveFailed')
	const started = await startGmailConnect({ organizationId: post.organizationId, upgradeId: post.mailUpgradeId, back: post.back })
	// No Google client configured (the card shows the button disabled; a forged post lands here): nothing stored.
	if (!started) return failed('marketplace:integrations.gmailUnavailable')
	return redirect(started.url, { headers: { 'set-cookie': started.cookie } })
}

/** Checks a stored connection again (Refresh): its login, or its Gmail token. */
async function checkConnection(post: CardPost, credentialId: string) {
	const failed = (description: string) => redirectWithToast(post.back, integrationToast('error', 'checkFailed', description))
	if (!(await allowEvent('integration-check', post.organizationId))) return failed('marketplace:integrations.toasts.tooManyAttempts')
	const result = await refreshIntegration(post.userId, post.organizationId, credentialId, checkGmail)
	if (!result.ok) return failed('marketplace:integrations.toasts.notFound')
	if (result.check && !result.check.ok) return failed(`marketplace:integrations.failures.${result.check.failure}`)
	return redirectWithToast(post.back, integrationToast('success', 'checked'))
}

/** Disconnects a mailbox; the toast names it ('Gmail' and the account for a Gmail connection). */
async function disconnect(post: CardPost, found: FoundModule, credentialId: string) {
	const mailbox = found.mailboxes.find((m) => m.id === credentialId)
	const name = mailbox ? (mailbox.account ?? mailbox.provider) : ''
	const result = await disconnectIntegration(post.userId, post.organizationId, credentialId)
	if (!result.ok)
		return redirectWithToast(post.back, integrationToast('error', 'disconnectFailed', 'marketplace:integrations.toasts.notFound'))
	const provider = result.provider === 'gmail' ? `Gmail ${name}`.trim() : name
	return redirectWithToast(post.back, integrationToast('success', 'disconnected', undefined, { provider }))
}
