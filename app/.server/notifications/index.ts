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
 * Every mail goes through `notifyMembers` (send.ts), whose recipients `recipientsFor` decides in
 * one place (audience.ts): the module's activation, "Email notifications" switch and default
 * visibility, then the member's own toggle. Every mail carries an unsubscribe link that turns
 * its toggle off without signing in.
 */
import { registerJob } from '../scheduler.ts'
import { weeklyReportJob } from './weekly-report.ts'

export { notifyStaffOfBooking, type BookingNotice } from './booking.ts'
export { sendImportDigest, sendTransactionDigest, type TransactionDigest } from './digest.ts'
export { getPreferences, savePreferences, turnOff } from './preferences.ts'
export { NOTIFICATION_MODULES, recipientsFor, type Recipient } from './audience.ts'
export { unsubscribeUrl, verifyUnsubscribe, type UnsubscribeRequest } from './unsubscribe.ts'

export function registerNotificationJobs() {
	registerJob(weeklyReportJob)
}
