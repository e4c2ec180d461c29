import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'
import { env } from '../env.ts'
import { logError } from '../log.ts'

export type MailAttachment = { filename: string; content: string; contentType: string }
/** `headers`: extra headers (List-Unsubscribe on notification mails); `attachments`: files such as a calendar invitation. */
export type Mail = { to: string; subject: string; text: string; html?: string; headers?: Record<string, string>; attachments?: MailAttachment[] }

/**
 * The mail port: SMTP through nodemailer when SMTP_URL is set, otherwise each message is
 * written as an .eml file under DATA_DIR/outbox (what the tests and a local install read).
 */
export async function sendMail(mail: Mail) {
	const { SMTP_URL, MAIL_FROM, dataDir } = env()
	const message = { from: MAIL_FROM, ...mail }
	if (SMTP_URL) {
		await nodemailer.createTransport(SMTP_URL).sendMail(message)
		return
	}
	const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
	const info = await transport.sendMail(message)
	const outbox = path.join(dataDir, 'outbox')
	await mkdir(outbox, { recursive: true })
	const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_')
	await writeFile(path.join(outbox, `${Date.now()}-${safeTo}.eml`), info.message as Buffer)
}

let queue: Promise<void> = Promise.resolve()

/**
 * Sends the mail after the current request has answered, one message at a time, so a request
 * takes the same time whether or not it sends one (the forgot-password form must not tell a
 * known email from an unknown one by its speed). A failure is logged, never thrown.
 */
export function queueMail(mail: Mail) {
	queue = queue.then(() => sendMail(mail)).catch((error: unknown) => logError(error, { event: 'mail_failed', subject: mail.subject }))
}

/** Resolves once every queued mail has been sent (or has failed): at shutdown, and in tests. */
export function drainMail() {
	return queue
}
