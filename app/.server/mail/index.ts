import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'
import { env } from '../env.ts'
import { logError } from '../log.ts'
import { OUTBOUND } from '../outbound.ts'

/** A file sent with a mail: text (a calendar invitation) or bytes (a report's PDF); every adapter sends both (nodemailer). */
export type MailAttachment = { filename: string; content: string | Buffer; contentType: string }
/** `headers`: extra headers (List-Unsubscribe on notification mails); `attachments`: files such as a calendar invitation or a PDF. */
export type Mail = {
	to: string
	subject: string
	text: string
	html?: string
	headers?: Record<string, string>
	attachments?: MailAttachment[]
}

type SmtpLimits = { [K in keyof typeof OUTBOUND.smtp]: number }

/**
 * Sends one message through the SMTP relay at `url` under the outbound policy
 * (app/.server/outbound.ts): nodemailer's timeouts for each step, a cap on the relay's answers,
 * and one deadline for the whole message, after which the connection is closed and the send
 * fails (AbortError), so a relay that trickles cannot hold the mail queue.
 */
export async function sendSmtp(url: string, message: Mail & { from: string }, limits: SmtpLimits = OUTBOUND.smtp) {
	const { deadlineMs, ...timeouts } = limits
	const transport = nodemailer.createTransport({ url, ...timeouts })
	// nodemailer 10 honours an AbortSignal per message (its types do not list it yet).
	const options = { ...message, signal: AbortSignal.timeout(deadlineMs) }
	try {
		await transport.sendMail(options)
	} finally {
		transport.close()
	}
}

/**
 * The mail port: SMTP through nodemailer when SMTP_URL is set, otherwise each message is
 * written as an .eml file under DATA_DIR/outbox (what the tests and a local install read).
 */
export async function sendMail(mail: Mail) {
	const { SMTP_URL, MAIL_FROM, dataDir } = env()
	const message = { from: MAIL_FROM, ...mail }
	if (SMTP_URL) {
		await sendSmtp(SMTP_URL, message)
		return
	}
	const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
	const info = await transport.sendMail(message)
	const outbox = path.join(dataDir, 'outbox')
	const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_')
	const file = path.join(outbox, `${Date.now()}-${safeTo}.eml`)
	// The folder is made when a write finds it missing, not before every message (a reminders tick sends thousands).
	await writeFile(file, info.message as Buffer).catch(async (error: NodeJS.ErrnoException) => {
		if (error.code !== 'ENOENT') throw error
		await mkdir(outbox, { recursive: true })
		await writeFile(file, info.message as Buffer)
	})
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

/**
 * Runs `send` on the same queue, for a sender that writes its own message and must know how it
 * went (the staff's booking notices, app/.server/notifications/booking.ts): it waits for the
 * mails queued before it, `drainMail` waits for it, and the returned promise settles with it
 * (a failure is the caller's to handle; the queue goes on).
 */
export function onMailQueue(send: () => Promise<void>): Promise<void> {
	const done = queue.then(send)
	queue = done.catch(() => undefined)
	return done
}

/** Resolves once every queued mail has been sent (or has failed): at shutdown, and in tests. */
export function drainMail() {
	return queue
}
