import { closeDatabase, openDatabase, asSystem, sql } from './db/index.ts'
import { defaultDatabaseOptions } from './db/config.ts'
import { startEmbeddedVacuum } from './db/maintenance.ts'
import { migrate } from './db/migrate.ts'
import { seedDemo } from './db/seed-demo.ts'
import { env, usesEmbeddedDatabase } from './env.ts'
import { log } from './log.ts'
import { deliverGuestNoticesSoon, depositsJob } from './booking/deposits.ts'
import { registerBookingReminders } from './booking/reminders.ts'
import { registerInvoiceReminders } from './messaging/invoice-reminders.ts'
import { registerRecurringInvoices } from './invoices/recurring.ts'
import { registerReportAutomation } from './reports/automation-job.ts'
import { registerRuleNotices } from './rules/notices.ts'
import { reconcileAfterImport, registerBankFeedJob } from './bank-feed/index.ts'
import { registerCrmFollowUps } from './crm/follow-up-job.ts'
import { clientMergePruningJob } from './crm/merges.ts'
import { registerWebhookDeliveries } from './webhooks/delivery.ts'
import { drainMail } from './mail/index.ts'
import { registerEmailSyncJob } from './payments/email-sync/sync.ts'
import { onImportCommitted } from './payments/imports/pipeline.ts'
import { applyDefaultCategories } from './payments/email-sync/custom-rules.ts'
import { registerNotificationJobs, sendImportDigest } from './notifications/index.ts'
import { rateLimitPruningJob } from './rate-limit.ts'
import { auditPruningJob } from './organizations/audit-log.ts'
import { registerJob, startScheduler, type Scheduler } from './scheduler.ts'

export { onDatabaseStopped } from './db/index.ts'

let scheduler: Scheduler | undefined
let vacuum: ReturnType<typeof startEmbeddedVacuum> | undefined

let starting: Promise<{ demo: { email: string; password: string } | null; trustProxy: number; shutdownMs: number }> | undefined

/** Opens the database, applies migrations and, on the embedded database, seeds the demo. Once per process. */
export function ensureStarted() {
	starting ??= (async () => {
		env()
		const database = defaultDatabaseOptions()
		await openDatabase(database)
		const { applied } = await migrate()
		if (applied.length) log({ event: 'migrated', applied })
		const seed = env().SEED_DEMO
		const wantDemo = seed ? seed === 'true' || seed === '1' : usesEmbeddedDatabase()
		const demo = wantDemo ? await seedDemo() : null
		// PGlite runs no autovacuum of its own (app/.server/db/maintenance.ts); the first pass gives
		// the migrated and seeded tables their statistics.
		if (database.kind === 'pglite') vacuum ??= startEmbeddedVacuum()
		// Scheduled mails (the weekly report): exactly once across instances (app/.server/scheduler.ts).
		registerNotificationJobs()
		// The email sync: every 15 minutes per organization with a connected mailbox (docs/product.md, Email sync).
		registerEmailSyncJob()
		// The rate limits' counts of keys that never came back, daily.
		registerJob(rateLimitPruningJob)
		// The audit log's events past two years, daily (docs/product.md, Audit log).
		registerJob(auditPruningJob)
		// Unpaid deposit holds released at their deadline, and the visitors' payment mails, every minute (docs/product.md, Deposits and prepayment).
		registerJob(depositsJob)
		// Reminder mails before each appointment, for organizations with the upgrade (docs/product.md, Booking reminders).
		registerBookingReminders()
		// Invoice reminders before and after the due date, for organizations with Reminders & Messaging (docs/product.md, Reminders & Messaging).
		registerInvoiceReminders()
		// Recurring invoices made and sent on their dates, for organizations with the upgrade (docs/product.md, Recurring invoices).
		registerRecurringInvoices()
		// Scheduled reports and threshold alerts, for organizations with the upgrade (docs/product.md, Reports › Automation).
		registerReportAutomation()
		// The members that rules ask to notify, mailed once each, every minute (docs/product.md, Rules).
		registerRuleNotices()
		// Bank feed discrepancies mailed once each to owners and administrators (docs/product.md, Bank feed).
		registerBankFeedJob()
		registerCrmFollowUps()
		// Client merges older than their 30 days of undo, pruned daily (docs/product.md, Clients › Duplicates and merges).
		registerJob(clientMergePruningJob)
		// Signed webhook deliveries and their retries, for organizations with Automation Unlimited (docs/product.md, Webhooks).
		registerWebhookDeliveries()
		const { SCHEDULER_TICK_MS, SCHEDULER_NOW } = env()
		const fixedNow = SCHEDULER_NOW ? new Date(SCHEDULER_NOW) : null
		scheduler ??= startScheduler({ intervalMs: SCHEDULER_TICK_MS, now: fixedNow ? () => fixedNow : undefined })
		// One transactions digest per committed import (docs/product.md, Settings › Notifications).
		onImportCommitted(sendImportDigest)
		// The payments of a sync run or an import may settle deposits: their visitors are told at once.
		onImportCommitted(async (batch) => deliverGuestNoticesSoon(batch.organizationId))
		// Payments imported after a bank statement are matched to the cash-outs that carried them (docs/product.md, Bank feed).
		onImportCommitted(reconcileAfterImport)
		// Payments a custom parsing rule read take its default category (docs/product.md, Email sync › Custom parsing rules).
		onImportCommitted(applyDefaultCategories)
		return { demo, trustProxy: env().TRUST_PROXY, shutdownMs: env().SHUTDOWN_SECONDS * 1000 }
	})()
	return starting
}

export async function checkDatabase() {
	await ensureStarted()
	await asSystem((trx) => sql`select 1`.execute(trx))
}

export async function shutdown() {
	// Runs under way get a quarter of the stop's time, then their signals fire; a run not done by
	// then keeps its claim unfinished and is taken over later (app/.server/scheduler.ts).
	await scheduler?.stop({ graceMs: (env().SHUTDOWN_SECONDS * 1000) / 4 })
	await vacuum?.stop()
	await drainMail()
	await closeDatabase()
}
