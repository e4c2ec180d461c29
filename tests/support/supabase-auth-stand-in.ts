/**
 * A stand-in for Supabase Auth (GoTrue) on localhost, for tests that cannot reach a real
 * project: the few endpoints @supabase/supabase-js calls for password sign-up, sign-in, token
 * refresh, user update and sign-out (of this session, the others or all: a signed-out session's
 * refresh token stops working, its access token lives until it expires), and the JWKS endpoint
 * against which `getClaims()` verifies
 * access tokens (ES256, as a project with asymmetric signing keys). New users are inserted into
 * the test database's auth.users, so the data model's trigger runs as it does when Supabase Auth
 * creates a user. It is not Supabase: what it proves is that our adapter speaks the protocol the
 * client library expects and carries the cookies; docs/deploy.md says what was not run for real.
 */
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto'
import http from 'node:http'
import pg from 'pg'

type StoredUser = {
	id: string
	email: string
	password: string
	metadata: Record<string, unknown>
	createdAt: string
	confirmedAt: string | null
}

export type StandIn = {
	url: string
	/** Every call received, as "METHOD /path?query". */
	calls: string[]
	/** Seconds the next issued access tokens live (supabase-js refreshes within 90 s of expiry). */
	setTokenLifetime: (seconds: number) => void
	/**
	 * The project's "Confirm email" (off by default): on, a sign-up gets no session, a password
	 * sign-in is refused with `email_not_confirmed`, and the address is confirmed through the
	 * token_hash of the "Confirm signup" mail (`verifyOtp`, as the email template's link does).
	 */
	setConfirmEmail: (on: boolean) => void
	/** The token_hash the latest "Confirm signup" mail to `email` would carry (sign-up or resend), or null. */
	confirmationToken: (email: string) => string | null
	/** An access token for `sub` signed with a key the JWKS does not publish. */
	forgedToken: (sub: string, email: string) => string
	stop: () => Promise<void>
}

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url')

function jwt(privateKey: KeyObject, kid: string, payload: Record<string, unknown>) {
	const head = b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid }))
	const body = b64url(JSON.stringify(payload))
	const signature = sign('sha256', Buffer.from(`${head}.${body}`), { key: privateKey, dsaEncoding: 'ieee-p1363' })
	return `${head}.${body}.${b64url(signature)}`
}

/**
 * Inserts a user into auth.users (the trigger does the rest) and returns its id; `confirmed`
 * says whether `email_confirmed_at` is set (Supabase Auth leaves it empty until the address is
 * confirmed when "Confirm email" is on).
 */
export type CreateUser = (email: string, metadata: Record<string, unknown>, confirmed?: boolean) => Promise<string>
/** Sets `email_confirmed_at` of the user, as Supabase Auth does when the confirmation link is used. */
export type ConfirmUser = (id: string) => Promise<void>

/** A CreateUser over a PostgreSQL URL (for servers in other processes). */
export function createUserIn(databaseUrl: string): CreateUser & { end: () => Promise<void> } {
	const db = new pg.Pool({ connectionString: databaseUrl, max: 2 })
	const create = async (email: string, metadata: Record<string, unknown>, confirmed = true) => {
		const { rows } = await db.query<{ id: string }>(
			`insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at) values ($1, $2, $3, case when $4 then now() end) returning id`,
			[email, JSON.stringify(metadata), JSON.stringify({ provider: 'email', providers: ['email'] }), confirmed],
		)
		return rows[0]!.id
	}
	return Object.assign(create, { end: () => db.end() })
}

/** Listens on `port` (0: any free port; the URL says which). */
export async function startSupabaseAuthStandIn(port: number, createUser: CreateUser, confirmUser?: ConfirmUser): Promise<StandIn> {
	const kid = randomUUID()
	const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
	const other = generateKeyPairSync('ec', { namedCurve: 'P-256' })
	const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] }
	const users = new Map<string, StoredUser>()
	// token → the user, the session, and when it authenticated (a refresh keeps the session and `amr`'s time, as Supabase Auth does)
	const refreshTokens = new Map<string, { id: string; sessionId: string; authenticatedAt: number }>()
	const confirmations = new Map<string, string>() // token_hash → user id
	const calls: string[] = []
	let lifetime = 3600
	let confirmEmail = false

	const userJson = (u: StoredUser) => ({
		id: u.id,
		aud: 'authenticated',
		role: 'authenticated',
		email: u.email,
		email_confirmed_at: u.confirmedAt,
		app_metadata: { provider: 'email', providers: ['email'] },
		user_metadata: u.metadata,
		identities: [{ id: u.id, user_id: u.id, provider: 'email', identity_data: { sub: u.id, email: u.email } }],
		created_at: u.createdAt,
		updated_at: u.createdAt,
	})

	const session = (
		u: StoredUser,
		authenticatedAt = Math.floor(Date.now() / 1000),
		method = 'password',
		sessionId: string = randomUUID(),
	) => {
		const now = Math.floor(Date.now() / 1000)
		const refresh = randomUUID()
		refreshTokens.set(refresh, { id: u.id, sessionId, authenticatedAt })
		const access = jwt(privateKey, kid, {
			sub: u.id,
			email: u.email,
			role: 'authenticated',
			aud: 'authenticated',
			iat: now,
			exp: now + lifetime,
			session_id: sessionId,
			app_metadata: { provider: 'email', providers: ['email'] },
			amr: [{ method, timestamp: authenticatedAt }],
			iss: 'supabase-auth-stand-in',
		})
		return {
			access_token: access,
			token_type: 'bearer',
			expires_in: lifetime,
			expires_at: now + lifetime,
			refresh_token: refresh,
			user: userJson(u),
		}
	}

	const claimsOfBearer = (header: string | undefined) => {
		const token = header?.replace(/^Bearer /i, '') ?? ''
		try {
			return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub?: string; session_id?: string }
		} catch {
			return null
		}
	}
	const userOfBearer = (header: string | undefined) => {
		const claims = claimsOfBearer(header)
		return [...users.values()].find((u) => u.id === claims?.sub) ?? null
	}

	const server = http.createServer((req, res) => {
		let raw = ''
		req.on('data', (c: Buffer) => (raw += c.toString()))
		req.on('end', () => {
			void (async () => {
				const url = new URL(req.url ?? '/', 'http://stand-in')
				calls.push(`${req.method} ${url.pathname}${url.search}`)
				const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>
				const send = (status: number, json?: unknown) => {
					res.writeHead(status, { 'content-type': 'application/json' })
					res.end(json === undefined ? '' : JSON.stringify(json))
				}
				const path = url.pathname.replace(/^\/auth\/v1/, '')
				if (req.method === 'GET' && path === '/.well-known/jwks.json') return send(200, { keys: [jwk] })
				if (req.method === 'POST' && path === '/signup') {
					const email = String(body.email).toLowerCase()
					if ([...users.values()].some((u) => u.email === email))
						return send(422, { code: 422, error_code: 'user_already_exists', msg: 'User already registered' })
					const metadata = (body.data ?? {}) as Record<string, unknown>
					const createdAt = new Date().toISOString()
					const id = await createUser(email, metadata, !confirmEmail)
					const user: StoredUser = {
						id,
						email,
						password: String(body.password),
						metadata,
						createdAt,
						confirmedAt: confirmEmail ? null : createdAt,
					}
					users.set(user.id, user)
					if (!confirmEmail) return send(200, session(user))
					// No session: the user as such, and the "Confirm signup" mail's token.
					confirmations.set(randomUUID(), user.id)
					return send(200, userJson(user))
				}
				if (req.method === 'POST' && path === '/resend') {
					const user = [...users.values()].find((u) => u.email === String(body.email).toLowerCase())
					if (user && !user.confirmedAt && body.type === 'signup') confirmations.set(randomUUID(), user.id)
					return send(200, {})
				}
				if (req.method === 'POST' && path === '/verify') {
					const id = confirmations.get(String(body.token_hash))
					const user = id ? users.get(id) : undefined
					if (!user || (body.type !== 'signup' && body.type !== 'email'))
						return send(403, { code: 403, error_code: 'otp_expired', msg: 'Email link is invalid or has expired' })
					for (const [hash, owner] of confirmations) if (owner === user.id) confirmations.delete(hash)
					user.confirmedAt = new Date().toISOString()
					await confirmUser?.(user.id)
					return send(200, session(user, undefined, 'otp'))
				}
				if (req.method === 'POST' && path === '/token') {
					const grant = url.searchParams.get('grant_type')
					if (grant === 'password') {
						const user = [...users.values()].find((u) => u.email === String(body.email).toLowerCase())
						if (!user || user.password !== body.password)
							return send(400, { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' })
						if (!user.confirmedAt) return send(400, { code: 400, error_code: 'email_not_confirmed', msg: 'Email not confirmed' })
						return send(200, session(user))
					}
					if (grant === 'refresh_token') {
						const held = refreshTokens.get(String(body.refresh_token))
						refreshTokens.delete(String(body.refresh_token))
						const user = held ? users.get(held.id) : undefined
						if (!user || !held) return send(400, { code: 400, error_code: 'refresh_token_not_found', msg: 'Invalid Refresh Token' })
						return send(200, session(user, held.authenticatedAt, 'password', held.sessionId))
					}
				}
				if (path === '/user') {
					const user = userOfBearer(req.headers.authorization)
					if (!user) return send(401, { code: 401, error_code: 'bad_jwt', msg: 'invalid JWT' })
					if (req.method === 'PUT' && typeof body.password === 'string') user.password = body.password
					return send(200, userJson(user))
				}
				if (req.method === 'POST' && path === '/logout') {
					// scope `local` (the default): this session; `others`: the user's other sessions; `global`: all of them.
					const claims = claimsOfBearer(req.headers.authorization)
					const scope = url.searchParams.get('scope') ?? 'local'
					for (const [token, held] of refreshTokens) {
						if (held.id !== claims?.sub) continue
						const mine = held.sessionId === claims.session_id
						if (scope === 'global' || (scope === 'others' ? !mine : mine)) refreshTokens.delete(token)
					}
					return send(204)
				}
				send(404, { code: 404, error_code: 'not_found', msg: `no stand-in for ${req.method} ${path}` })
			})().catch((error: unknown) => {
				res.writeHead(500, { 'content-type': 'application/json' })
				res.end(JSON.stringify({ code: 500, msg: String(error) }))
			})
		})
	})
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
	const address = server.address()
	const listening = typeof address === 'object' && address ? address.port : port
	return {
		url: `http://127.0.0.1:${listening}`,
		calls,
		setTokenLifetime: (seconds) => (lifetime = seconds),
		setConfirmEmail: (on) => (confirmEmail = on),
		confirmationToken: (email) => {
			const user = [...users.values()].find((u) => u.email === email.toLowerCase())
			return [...confirmations].filter(([, id]) => id === user?.id).at(-1)?.[0] ?? null
		},
		forgedToken: (sub, email) => {
			const now = Math.floor(Date.now() / 1000)
			return jwt(other.privateKey, kid, { sub, email, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 3600 })
		},
		stop: async () => {
			server.closeAllConnections()
			await new Promise((resolve) => server.close(resolve))
		},
	}
}
