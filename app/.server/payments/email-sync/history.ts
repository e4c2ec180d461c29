/**
 * The email sync as the module page shows it (docs/product.md, Email sync): the sync's state,
 * the latest runs and the notices the parsers could not read, with every moment already in the
 * organization's timezone.
 */
import { dateTimeIn } from '#app/lib/dates.ts'
import { getSyncStatus } from '../transactions.ts'
import { listSyncRuns, type RunCounts, type SyncTrigger } from './sync.ts'

/** A run as the module page shows it: times already in the organization's timezone. */
export type SyncRunRow = {
	id: string
	trigger: SyncTrigger
	status: 'running' | 'succeeded' | 'failed'
	started: { date: string; time: string }
	counts: RunCounts
	errorCode: string | null
	batchId: string | null
}

/** `reason` is absent on runs recorded before reasons were kept (read as not understood). */
export type UnreadableNoticeRow = { subject: string; sender: string; date: string | null; reason?: 'not_understood' | 'too_large' }

export type EmailSyncView = {
	status: 'idle' | 'pending' | 'error'
	errorCode: string | null
	timezone: string
	runs: SyncRunRow[]
	unreadable: UnreadableNoticeRow[]
}

/** Runs the page lists, and notices not understood it keeps (the same notice in several runs once). */
const RUNS_SHOWN = 20
const UNREADABLE_SHOWN = 50

/** The email sync's state, latest runs and the notices not understood, times in `timezone` (the organization's). */
export async function emailSyncView(userId: string, organizationId: string, timezone: string): Promise<EmailSyncView> {
	const [status, runs] = await Promise.all([getSyncStatus(userId, organizationId), listSyncRuns(userId, organizationId, RUNS_SHOWN)])
	const local = (iso: string) => dateTimeIn(timezone, new Date(iso))
	const seen = new Set<string>()
	const unreadable = runs
		.flatMap((r): UnreadableNoticeRow[] => r.unreadable)
		.filter((n) => {
			const key = `${n.sender}\u001f${n.subject}\u001f${n.date ?? ''}`
			if (seen.has(key)) return false
			seen.add(key)
			return true
		})
		.slice(0, UNREADABLE_SHOWN)
		.map((n) => ({ ...n, date: n.date ? local(n.date).date : null }))
	return {
		status: status.status,
		errorCode: status.errorMessage,
		timezone,
		runs: runs.map((r) => ({
			id: r.id,
			trigger: r.trigger,
			status: r.status,
			started: local(r.startedAt),
			counts: r.counts,
			errorCode: r.errorCode,
			batchId: r.batchId,
		})),
		unreadable,
	}
}
