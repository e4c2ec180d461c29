/**
 * Notifications that really notify (docs/product.md, Settings › Notifications), for other
 * modules to call:
 *
 * - `notifyStaffOfBooking({ organizationId, appointmentId, kind })` after a public booking is
 *   made, cancelled or moved ("Email notifications");
 * - `sendTransactionDigest({ organizationId, batchId, source, count, total })` once at the end of
 *   an import or sync run ("Transaction alerts");
 * - the weekly report, a job of the scheduler (app/.server/scheduler.ts), registered by
 *   `registerNotificationJobs()` at startup ("Weekly reports").
 *
 * Every mail carries an unsubscribe link that turns its toggle off without signing in.
 */
import { registerJob } from '../scheduler.ts'
import { weeklyReportJob } from './weekly-report.ts'

export { notifyStaffOfBooking, type BookingNotice } from './booking.ts'
export { sendImportDigest, sendTransactionDigest, type TransactionDigest } from './digest.ts'
export { getPreferences, savePreferences, turnOff, recipientsFor } from './preferences.ts'
export { unsubscribeUrl, verifyUnsubscribe, type UnsubscribeRequest } from './unsubscribe.ts'

export function registerNotificationJobs() {
	registerJob(weeklyReportJob)
}
