import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import PostalMime from 'postal-mime'

/**
 * Points DATA_DIR (the mail port's outbox, the storage port's files) at a fresh folder. Call at
 * the top of a test file, before anything reads env() (each test file has its own modules).
 */
export function useTemporaryDataDir() {
	const dir = mkdtempSync(path.join(tmpdir(), 'p2p-settings-'))
	process.env.DATA_DIR = dir
	process.env.SESSION_SECRET ??= 'test-session-secret-of-at-least-32-characters'
	process.env.LOG_LEVEL = 'silent'
	return dir
}

export type ReceivedMail = { to: string; subject: string; text: string; headers: Record<string, string> }

/** Every mail the outbox holds for `to` (all when omitted), oldest first, parsed. */
export async function mailsTo(to?: string): Promise<ReceivedMail[]> {
	const outbox = path.join(process.env.DATA_DIR!, 'outbox')
	let files: string[] = []
	try {
		files = readdirSync(outbox)
			.filter((f) => f.endsWith('.eml'))
			.sort()
	} catch {
		return []
	}
	const safe = to?.replace(/[^a-zA-Z0-9@._-]/g, '_')
	const mails: ReceivedMail[] = []
	for (const file of files) {
		if (safe && !file.endsWith(`-${safe}.eml`)) continue
		const parsed = await PostalMime.parse(readFileSync(path.join(outbox, file)))
		mails.push({
			to: parsed.to?.[0]?.address ?? '',
			subject: parsed.subject ?? '',
			text: parsed.text ?? '',
			headers: Object.fromEntries(parsed.headers.map((h) => [h.key, h.value])),
		})
	}
	return mails
}
