/**
 * How far the organization is on the way to an email sync (docs/product.md, Transactions: Sync),
 * so that the transactions screen names the next step the member still has to take, never one
 * already done: activate the P2P Transaction Tracking module, add its email upgrade, connect a
 * mailbox; once a mailbox is connected, its account and state.
 */
import { MAIL_UPGRADE_NAME, moduleOffer, P2P_MODULE_ID } from '#app/lib/modules.ts'
import { asUser } from '../../db/index.ts'

/** The mailbox of the email upgrade as the Sync part shows it. */
export type MailboxState = { account: string | null; status: 'connected' | 'error' | 'disconnected' }

/** The next step, or the connected mailbox. */
export type MailboxSetup =
	{ step: 'activate' } | { step: 'upgrade'; upgradeId: string | null } | { step: 'connect' } | { step: 'connected'; mailbox: MailboxState }

/** Where the organization stands (read as the member, RLS: their organization's rows only). */
export async function mailboxSetup(userId: string, organizationId: string): Promise<MailboxSetup> {
	return asUser(userId, async (trx) => {
		// An included module is every organization's: there is nothing to activate.
		if (moduleOffer(P2P_MODULE_ID) !== 'included') {
			const module = await trx
				.selectFrom('organization_modules')
				.select('id')
				.where('organization_id', '=', organizationId)
				.where('module_id', '=', P2P_MODULE_ID)
				.executeTakeFirst()
			if (!module) return { step: 'activate' }
		}
		const upgrade = await trx
			.selectFrom('module_upgrades as u')
			.leftJoin('organization_module_upgrades as omu', (join) =>
				join.onRef('omu.upgrade_id', '=', 'u.id').on('omu.organization_id', '=', organizationId),
			)
			.select(['u.id', 'omu.id as active'])
			.where('u.module_id', '=', P2P_MODULE_ID)
			.where('u.name', '=', MAIL_UPGRADE_NAME)
			.executeTakeFirst()
		if (!upgrade?.active) return { step: 'upgrade', upgradeId: upgrade?.id ?? null }
		const credential = await trx
			.selectFrom('integration_credentials')
			.select(['account', 'status', 'error_message'])
			.where('organization_id', '=', organizationId)
			.where('upgrade_id', '=', upgrade.id)
			.where('status', '<>', 'disconnected')
			// With several mailboxes (Email Pro), the oldest: the one that syncs without it too.
			.orderBy('created_at')
			.orderBy('id')
			.executeTakeFirst()
		if (!credential) return { step: 'connect' }
		return {
			step: 'connected',
			mailbox: { account: credential.account, status: credential.error_message ? 'error' : 'connected' },
		}
	})
}
