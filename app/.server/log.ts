import { env } from './env.ts'

/** One JSON line per event on stdout. */
export function log(fields: Record<string, unknown>) {
	if (env().LOG_LEVEL === 'silent') return
	process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...fields }) + '\n')
}

/** An error on stderr as one JSON line (whatever LOG_LEVEL says: errors are never silenced). */
export function logError(error: unknown, fields: Record<string, unknown> = {}) {
	const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) }
	process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level: 'error', ...fields, ...detail }) + '\n')
}
