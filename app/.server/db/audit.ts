/**
 * Who the audit log names for what a transaction writes (docs/decisions/053-audit-log.md). A
 * transaction as the signed-in user (asUser) is theirs already; a transaction of the server as
 * the system names the member it acts for (a role change), or the job or path that writes, for
 * the rest of the transaction. Without either, the log says "system".
 */
import { sql, type Tx } from './index.ts'
import { isUuid } from '#app/lib/uuid.ts'

/**
 * The jobs and paths the log names when no member made the change (translated as
 * settings:auditLog.sources.*). Every path that writes audited tables today runs as a member
 * (imports, the email sync and recurring invoices as the member they act for), so only the
 * default is named; a new system job adds its name here and in the three locale files.
 */
export const AUDIT_SOURCES = ['system', 'scheduler'] as const
export type AuditSource = (typeof AUDIT_SOURCES)[number]

/** The rest of this system transaction acts for `userId`: the log names them. */
export async function auditActor(trx: Tx, userId: string) {
	if (!isUuid(userId)) throw new Error('auditActor needs a user id')
	await sql`select set_config('p2p.audit_actor', ${userId}, true)`.execute(trx)
}

/** The rest of this system transaction is the job or path `source`: the log names it. */
export async function auditSource(trx: Tx, source: AuditSource) {
	await sql`select set_config('p2p.audit_source', ${source}, true)`.execute(trx)
}
