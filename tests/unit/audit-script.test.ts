import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'

// scripts/audit.sh reads npm's answer; here `npm` is a stand-in on PATH that answers as the
// registry's advisory service can: a clean report, a report with findings, a refusal, or nothing.
const bin = mkdtempSync(path.join(tmpdir(), 'audit-npm-'))
afterAll(() => rmSync(bin, { recursive: true, force: true }))

function audit(output: string, status: number) {
	writeFileSync(path.join(bin, 'npm'), `#!/usr/bin/env bash\nprintf '%b\\n' ${JSON.stringify(output)}\nexit ${status}\n`)
	chmodSync(path.join(bin, 'npm'), 0o755)
	const run = spawnSync('bash', ['scripts/audit.sh'], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' })
	return { status: run.status, said: run.stdout }
}

describe('npm run audit', () => {
	test('passes on a clean report', () => {
		expect(audit('found 0 vulnerabilities', 0)).toMatchObject({
			status: 0,
			said: expect.stringContaining('no high or critical advisories'),
		})
	})

	test('fails on a report that lists a high or critical advisory', () => {
		expect(audit('lodash  <4.17.21\nSeverity: high\n1 high severity vulnerability', 1)).toMatchObject({
			status: 1,
			said: expect.stringContaining('advisories found'),
		})
	})

	test('says it checked nothing when the advisory service refuses or npm says nothing', () => {
		expect(audit('npm warn audit 405 Method Not Allowed\nnpm error audit endpoint returned an error', 1)).toMatchObject({
			status: 2,
			said: expect.stringContaining('NOT DONE'),
		})
		expect(audit('', 1)).toMatchObject({ status: 2, said: expect.stringContaining('NOT DONE') })
	})
})
