import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

const schema = z.object({
	NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
	PORT: z.coerce.number().int().min(1).max(65535).default(3000),
	HOST: z.string().default('0.0.0.0'),
	PUBLIC_URL: z.url().optional(),
	// How many proxies in front of the server append to X-Forwarded-For: 'true' is one.
	TRUST_PROXY: z
		.string()
		.regex(/^(true|false|\d{1,2})$/, 'true, false or a number of proxies')
		.default('false')
		.transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v))),
	DATA_DIR: z.string().default('./.data'),
	DATABASE_URL: z.string().optional(),
	// A session-mode or direct connection for LISTEN (the calendar's live refresh) when
	// DATABASE_URL is a transaction-mode pooler, as on Supabase (docs/deploy.md).
	DIRECT_DATABASE_URL: z.string().optional(),
	// The Supabase adapters of the auth and storage ports (docs/decisions/019-supabase-adapters.md).
	SUPABASE_URL: z.url().optional(),
	SUPABASE_ANON_KEY: z.string().min(20).optional(),
	SUPABASE_SERVICE_ROLE_KEY: z.string().min(20).optional(),
	// With Supabase: the Google provider is enabled in the project (Authentication › Providers).
	SUPABASE_AUTH_GOOGLE: z.enum(['true', 'false']).default('false'),
	SESSION_SECRET: z.string().min(32).optional(),
	// Seals integration credentials (app/.server/secrets.ts); generated under DATA_DIR when embedded.
	SECRETS_KEY: z.string().min(32).optional(),
	SEED_DEMO: z.enum(['true', 'false', '1', '0']).optional(),
	SMTP_URL: z.string().optional(),
	MAIL_FROM: z.string().default('P2P Transaction Tracker <no-reply@localhost>'),
	// The installation owner's address: the plans page's "Contact us" (docs/deploy.md); without it, a sentence.
	CONTACT_EMAIL: z.email().optional(),
	// IMAP hosts on loopback, private or link-local addresses are refused (app/.server/outbound.ts);
	// 'true' allows them, for a self-hosted mail server on the same network (and the tests' dovecot).
	IMAP_ALLOW_PRIVATE_HOSTS: z.enum(['true', 'false']).default('false'),
	// Webhook addresses on loopback, private or link-local addresses are refused the same way (app/.server/webhooks/);
	// 'true' allows them, for a receiver on the same network (and the tests' receiver on 127.0.0.1).
	WEBHOOKS_ALLOW_PRIVATE_HOSTS: z.enum(['true', 'false']).default('false'),
	GOOGLE_CLIENT_ID: z.string().optional(),
	GOOGLE_CLIENT_SECRET: z.string().optional(),
	LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
	LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(100),
	// Windows of a day at most: the rate limits' counts are kept two days (app/.server/rate-limit.ts).
	LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
	SIGNUP_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
	SIGNUP_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
	// The public booking pages, per address and hour: booking posts, slot lookups; and how many
	// upcoming bookings one email may hold with one organization.
	BOOK_POSTS_PER_HOUR: z.coerce.number().int().min(1).default(10),
	BOOK_LOOKUPS_PER_HOUR: z.coerce.number().int().min(1).default(600),
	BOOK_MAX_UPCOMING_PER_EMAIL: z.coerce.number().int().min(1).default(3),
	// Invoice pages and PDFs asked for by a token of no invoice, per address and hour.
	INVOICE_PAGE_MISSES_PER_HOUR: z.coerce.number().int().min(1).default(100),
	LOG_LEVEL: z.enum(['silent', 'info']).default('info'),
	// How long a stop (SIGTERM) may take in all: requests under way get half of it to finish.
	SHUTDOWN_SECONDS: z.coerce.number().int().min(1).max(3600).default(20),
	// The scheduler (app/.server/scheduler.ts): how often each instance looks for due jobs, and,
	// for tests and rehearsals only, a fixed instant it takes as "now" (e.g. a Monday 09:00 UTC).
	SCHEDULER_TICK_MS: z.coerce.number().int().min(100).default(60_000),
	SCHEDULER_NOW: z.iso.datetime({ offset: true }).optional(),
})

export type Env = z.infer<typeof schema> & { SESSION_SECRET: string; dataDir: string }

let cached: Env | undefined

/** The environment, parsed once. A missing or malformed setting fails fast with a clear line. */
export function env(): Env {
	if (cached) return cached
	const parsed = schema.safeParse(process.env)
	if (!parsed.success) {
		const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
		throw new Error(`Invalid environment:\n${lines.join('\n')}`)
	}
	const dataDir = path.resolve(parsed.data.DATA_DIR)
	let secret = parsed.data.SESSION_SECRET
	if (!secret) {
		if (parsed.data.DATABASE_URL) {
			throw new Error('SESSION_SECRET (32+ characters) is required when DATABASE_URL is set.')
		}
		secret = readOrCreateSecret(dataDir)
	}
	cached = { ...parsed.data, SESSION_SECRET: secret, dataDir }
	return cached
}

function readOrCreateSecret(dataDir: string) {
	const file = path.join(dataDir, 'session-secret')
	try {
		return readFileSync(file, 'utf8').trim()
	} catch {
		mkdirSync(dataDir, { recursive: true })
		const secret = randomBytes(32).toString('hex')
		writeFileSync(file, secret, { mode: 0o600 })
		return secret
	}
}

/** Both Supabase settings are there: auth (and storage, with the service key) use Supabase. */
export function usesSupabase() {
	const { SUPABASE_URL, SUPABASE_ANON_KEY } = env()
	return Boolean(SUPABASE_URL && SUPABASE_ANON_KEY)
}

export function usesEmbeddedDatabase() {
	return !env().DATABASE_URL
}
