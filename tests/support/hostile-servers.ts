/**
 * Mail servers that misbehave on purpose, for the outbound policy's tests (app/.server/outbound.ts):
 * tiny TCP servers on a free loopback port, each playing one attacker or broken peer, counting
 * the connections they get and the bytes they manage to send.
 *
 * - `silent`: accepts the connection and never says anything;
 * - `trickle-greeting`: instead of a greeting, one byte every `everyMs` (never a full line);
 * - `trickle-after-greeting`: greets, then answers the first command one byte every `everyMs`;
 * - `trickle-after-login`: plays along (CAPABILITY, LOGIN, anything else OK) until a mailbox is
 *   opened, then answers that one byte every `everyMs`;
 * - `huge-literal`: greets, then answers the first command with a literal announced as 600 MB
 *   and sends it as fast as the client reads;
 * - `slow-smtp`: an SMTP relay whose greeting comes one byte every `everyMs`.
 */
import { createServer, type Server, type Socket } from 'node:net'

export type Behaviour = 'silent' | 'trickle-greeting' | 'trickle-after-greeting' | 'trickle-after-login' | 'huge-literal' | 'slow-smtp'

export type HostileServer = {
	host: '127.0.0.1'
	port: number
	/** Connections accepted so far. */
	connections: number
	/** Bytes sent to clients so far. */
	written: number
	stop: () => Promise<void>
}

export const HUGE_LITERAL = 600_000_000

function listen(server: Server): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject)
		server.listen(0, '127.0.0.1', () => {
			const address = server.address()
			resolve(typeof address === 'object' && address ? address.port : 0)
		})
	})
}

/** A loopback port where nothing listens (a closed port). */
export async function closedPort(): Promise<number> {
	const server = createServer()
	const port = await listen(server)
	await new Promise<void>((resolve) => server.close(() => resolve()))
	return port
}

export async function startHostileServer(behaviour: Behaviour, options: { everyMs?: number } = {}): Promise<HostileServer> {
	const everyMs = options.everyMs ?? 1000
	const sockets = new Set<Socket>()
	const state = { connections: 0, written: 0 }
	const server = createServer((socket) => {
		state.connections++
		sockets.add(socket)
		let timer: NodeJS.Timeout | undefined
		socket.on('error', () => undefined)
		socket.on('close', () => {
			clearInterval(timer)
			sockets.delete(socket)
		})
		const send = (text: string) => {
			if (socket.destroyed) return
			socket.write(text)
			state.written += Buffer.byteLength(text)
		}
		const trickle = (text = 'x') => {
			let i = 0
			timer ??= setInterval(() => send(text[i++ % text.length]!), everyMs)
		}
		const flood = () => {
			send(`* CAPABILITY {${HUGE_LITERAL}}\r\n`)
			const chunk = Buffer.alloc(64 * 1024, 'a')
			const pump = () => {
				while (!socket.destroyed && state.written < HUGE_LITERAL) {
					state.written += chunk.length
					if (!socket.write(chunk)) return void socket.once('drain', pump)
				}
			}
			pump()
		}
		switch (behaviour) {
			case 'silent':
				return
			case 'trickle-greeting':
				return trickle()
			case 'slow-smtp':
				return trickle('220 slow.example ESMTP ')
			default:
				send('* OK hostile IMAP server ready\r\n')
		}
		let buffer = ''
		socket.on('data', (chunk) => {
			buffer += chunk.toString('latin1')
			for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
				const line = buffer.slice(0, end)
				buffer = buffer.slice(end + 2)
				const [tag = '*', command = ''] = line.split(' ')
				const name = command.toUpperCase()
				if (behaviour === 'trickle-after-greeting') trickle()
				else if (behaviour === 'huge-literal') {
					if (state.written < 1000) flood()
				} else if (name === 'CAPABILITY') send(`* CAPABILITY IMAP4rev1\r\n${tag} OK done\r\n`)
				else if (name === 'LOGIN') send(`${tag} OK logged in\r\n`)
				else if (name === 'LOGOUT') send(`* BYE\r\n${tag} OK bye\r\n`)
				else if (name === 'SELECT' || name === 'EXAMINE') trickle()
				else send(`${tag} OK fine\r\n`)
			}
		})
	})
	const port = await listen(server)
	return {
		host: '127.0.0.1',
		port,
		get connections() {
			return state.connections
		},
		get written() {
			return state.written
		},
		stop: async () => {
			for (const socket of sockets) socket.destroy()
			await new Promise<void>((resolve) => server.close(() => resolve()))
		},
	}
}
