/**
 * The progress of the imports this server process is running, by a token the upload form
 * carries (a random UUID made by the browser). With JavaScript the import screen polls
 * `/app/transactions/import/progress/:token` while its post runs and draws a bar; without it
 * the preview page simply appears when the work is done. In memory: a progress belongs to the
 * process that runs the import (a poll that reaches another instance sees "unknown" and the
 * bar waits), and is forgotten a minute after the last update.
 */
export type ImportPhase = 'reading' | 'checking' | 'committing' | 'done'
export type ImportProgress = { phase: ImportPhase; share: number; organizationId: string }

const TTL_MS = 60_000
const MAX_TRACKED = 1_000
const progress = new Map<string, ImportProgress & { at: number }>()

const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isProgressToken(value: unknown): value is string {
	return typeof value === 'string' && TOKEN.test(value)
}

export function reportProgress(token: string | null, organizationId: string, phase: ImportPhase, share: number) {
	if (!token) return
	const now = Date.now()
	for (const [key, value] of progress) if (now - value.at > TTL_MS) progress.delete(key)
	if (progress.size >= MAX_TRACKED && !progress.has(token)) return
	progress.set(token, { phase, share: Math.max(0, Math.min(1, share)), organizationId, at: now })
}

/** The progress of a token, only for the organization that started it. */
export function readProgress(token: string, organizationId: string): Omit<ImportProgress, 'organizationId'> | null {
	const value = progress.get(token)
	if (!value || value.organizationId !== organizationId || Date.now() - value.at > TTL_MS) return null
	return { phase: value.phase, share: value.share }
}
