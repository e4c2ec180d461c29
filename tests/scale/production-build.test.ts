import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * `npm start` runs `node server.js` with no NODE_ENV. React and React DOM choose their build by
 * NODE_ENV when they are first imported, so server.js sets it before importing anything that
 * loads them: until it did, every production start served with React's development build
 * (slower, and noisy). The probe prints which build the running server has.
 */
test('node server.js, NODE_ENV unset, serves with the production builds of React and React DOM', async () => {
	const dataDir = path.join(ROOT, 'tests/.tmp/production-build')
	rmSync(dataDir, { recursive: true, force: true })
	const child = spawn(process.execPath, ['--import', './tests/scale/react-build-probe.js', 'server.js'], {
		cwd: ROOT,
		env: {
			PATH: process.env.PATH,
			PORT: String(Number(process.env.SCALE_PORT ?? 4180) + 5),
			HOST: '127.0.0.1',
			DATA_DIR: dataDir,
			SEED_DEMO: 'false',
			LOG_LEVEL: 'silent',
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	let output = ''
	try {
		const line = await new Promise<string>((resolve, reject) => {
			const timeout = setTimeout(() => reject(new Error(`no answer from the probe:\n${output}`)), 50_000)
			child.stdout!.on('data', (d: Buffer) => {
				output += d.toString()
				const found = /react build: .*/.exec(output)?.[0]
				if (found) {
					clearTimeout(timeout)
					resolve(found)
				}
			})
			child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
			child.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)))
		})
		expect(line).toBe('react build: production, react-dom/server build: production')
	} finally {
		child.kill('SIGTERM')
		rmSync(dataDir, { recursive: true, force: true })
	}
})
