/**
 * A throwaway IMAP server for tests: Debian's dovecot (package dovecot-imapd, installed by
 * scripts/setup-test-env.sh) started as the current user on a free loopback port, plain login
 * without TLS allowed (loopback only), one test user from a passwd-file (and any `others`, for
 * several mailboxes on one server), maildirs under tests/.tmp. `appendMessage` puts a raw
 * message into the mailbox over IMAP (the first user's unless told `user`).
 * Works as root and as any other user: every dovecot process runs as whoever starts it.
 * It listens on 127.0.0.1, which the app refuses as a mailbox host by default: a test that makes
 * the app connect to it sets IMAP_ALLOW_PRIVATE_HOSTS=true (app/.server/outbound.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { createServer, Socket } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { ImapFlow } from 'imapflow'

export const DOVECOT = process.env.DOVECOT_PATH ?? '/usr/sbin/dovecot'

export type ImapServer = {
	host: string
	port: number
	user: string
	password: string
	/** The other users given to startImapServer (`others`), each with its own mailbox. */
	others: Array<{ user: string; password: string }>
	/** Appends a raw RFC 5322 message (to INBOX of the first user unless told otherwise); returns its UID. */
	appendMessage: (
		raw: string | Buffer,
		options?: { mailbox?: string; date?: Date; flags?: string[]; user?: string },
	) => Promise<number | undefined>
	/**
	 * Drops raw messages straight into the user's INBOX maildir (fast, for large mailboxes);
	 * dovecot picks them up at the next SELECT. `date` becomes their internal date.
	 */
	deliverToMaildir: (raws: Array<string | Buffer>, date?: Date) => void
	/** A logged-in client for assertions (close it with logout()); the first user's unless told another. */
	client: (user?: string) => Promise<ImapFlow>
	stop: () => Promise<void>
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer()
		server.unref()
		server.on('error', reject)
		server.listen(0, '127.0.0.1', () => {
			const address = server.address()
			server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
		})
	})
}

function canConnect(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = new Socket()
		socket.setTimeout(500)
		socket.once('connect', () => {
			socket.destroy()
			resolve(true)
		})
		socket.once('error', () => resolve(false))
		socket.once('timeout', () => {
			socket.destroy()
			resolve(false)
		})
		socket.connect(port, '127.0.0.1')
	})
}

export async function startImapServer(
	options: { user?: string; password?: string; others?: Array<{ user: string; password: string }> } = {},
): Promise<ImapServer> {
	if (!existsSync(DOVECOT)) throw new Error(`${DOVECOT} is missing: run scripts/setup-test-env.sh (installs dovecot-imapd)`)
	const user = options.user ?? 'owner@example.test'
	const password = options.password ?? 'right-app-password'
	const port = await freePort()
	const root = path.resolve('tests/.tmp', `imap-${process.pid}-${port}`)
	rmSync(root, { recursive: true, force: true })
	for (const dir of ['run', 'state', 'home']) mkdirSync(path.join(root, dir), { recursive: true })
	// As root, dovecot refuses to run its login process as root: the package's own users serve
	// (dovecot for the internal and mail processes, dovenull for the login process).
	const me = os.userInfo()
	const asRoot = me.uid === 0
	const idOf = (name: string, flag: '-u' | '-g') => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim())
	const username = asRoot ? 'dovecot' : me.username
	const uid = asRoot ? idOf('dovecot', '-u') : me.uid
	const gid = asRoot ? idOf('dovecot', '-g') : me.gid
	const loginUser = asRoot ? 'dovenull' : me.username
	const group =
		readFileSync('/etc/group', 'utf8')
			.split('\n')
			.map((line) => line.split(':'))
			.find((f) => f[2] === String(gid))?.[0] ?? username
	const others = options.others ?? []
	const passwords = new Map([[user, password], ...others.map((o) => [o.user, o.password] as const)])
	writeFileSync(
		path.join(root, 'users'),
		[...passwords].map(([u, p]) => `${u}:{PLAIN}${p}:${uid}:${gid}::${path.join(root, 'home', u)}\n`).join(''),
		{ mode: 0o600 },
	)
	if (asRoot) for (const f of ['home', 'users']) chownSync(path.join(root, f), uid, gid)
	const config = `
base_dir = ${root}/run
state_dir = ${root}/state
instance_name = test-imap-${port}
log_path = ${root}/dovecot.log
info_log_path = ${root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# A wrong password is answered at once (dovecot waits 2 seconds by default).
auth_failure_delay = 0
default_internal_user = ${username}
default_internal_group = ${group}
default_login_user = ${loginUser}
first_valid_uid = ${uid}
last_valid_uid = ${uid}
first_valid_gid = ${gid}
mail_location = maildir:~/Maildir
mail_uid = ${uid}
mail_gid = ${gid}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${root}/users
}
userdb {
  driver = passwd-file
  args = username_format=%u ${root}/users
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service auth {
  user = ${username}
}
service auth-worker {
  user = ${username}
}
service stats {
  unix_listener stats-reader {
    user = ${username}
    group = ${group}
  }
  unix_listener stats-writer {
    user = ${username}
    group = ${group}
  }
}
`
	const configFile = path.join(root, 'dovecot.conf')
	writeFileSync(configFile, config)
	const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] })
	// Never outlive the test process.
	const killOnExit = () => child.kill('SIGTERM')
	process.once('exit', killOnExit)
	let output = ''
	child.stdout?.on('data', (d) => (output += String(d)))
	child.stderr?.on('data', (d) => (output += String(d)))
	const log = () => {
		try {
			return readFileSync(path.join(root, 'dovecot.log'), 'utf8')
		} catch {
			return ''
		}
	}
	const deadline = Date.now() + 10_000
	while (!(await canConnect(port))) {
		if (child.exitCode !== null || Date.now() > deadline) {
			child.kill('SIGTERM')
			throw new Error(`dovecot did not start:\n${output}\n${log()}`)
		}
		await new Promise((r) => setTimeout(r, 100))
	}

	const client = async (as = user) => {
		const pass = passwords.get(as)
		if (pass === undefined) throw new Error(`no such test user: ${as}`)
		const c = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user: as, pass }, logger: false })
		await c.connect()
		return c
	}
	return {
		host: '127.0.0.1',
		port,
		user,
		password,
		others,
		client,
		deliverToMaildir: (raws, date = new Date()) => {
			const maildir = path.join(root, 'home', user, 'Maildir')
			for (const dir of ['new', 'cur', 'tmp']) {
				mkdirSync(path.join(maildir, dir), { recursive: true })
				if (asRoot) chownSync(path.join(maildir, dir), uid, gid)
			}
			if (asRoot) {
				chownSync(path.join(root, 'home', user), uid, gid)
				chownSync(maildir, uid, gid)
			}
			const seconds = date.getTime() / 1000
			raws.forEach((raw, i) => {
				const file = path.join(maildir, 'new', `${Math.floor(seconds)}.M${i}P${process.pid}.test`)
				writeFileSync(file, raw)
				utimesSync(file, seconds, seconds)
				if (asRoot) chownSync(file, uid, gid)
			})
		},
		appendMessage: async (raw, { mailbox = 'INBOX', date, flags, user: as } = {}) => {
			const c = await client(as)
			try {
				const result = await c.append(mailbox, raw, flags, date)
				return result ? result.uid : undefined
			} finally {
				await c.logout()
			}
		},
		stop: async () => {
			process.off('exit', killOnExit)
			if (child.exitCode === null) {
				const exited = new Promise((r) => child.once('exit', r))
				child.kill('SIGTERM')
				await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))])
			}
			rmSync(root, { recursive: true, force: true })
		},
	}
}
