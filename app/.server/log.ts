import { env } from './env.ts'

/** One JSON line per event on stdout. */
export function log(fields: Record<string, unknown>) {
	if (env().LOG_LEVEL === 'silent') return
	process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...fields }) + '\n')
}
