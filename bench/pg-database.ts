/**
 * A fresh database on the PostgreSQL test server (scripts/pg-test-server.sh: fsync off) for one
 * benchmark run, and how to drop it afterwards. payments.ts, imports.ts and email-sync.ts use it.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import pg from 'pg'

const root = path.resolve(import.meta.dirname, '..')

export async function freshPgDatabase(prefix: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
	const adminUrl = execFileSync('bash', [path.join(root, 'scripts/pg-test-server.sh')], { encoding: 'utf8' }).trim()
	const name = `${prefix}_${Date.now()}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	await admin.end()
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	const drop = async () => {
		const c = new pg.Client({ connectionString: adminUrl })
		await c.connect()
		await c.query(`drop database if exists ${name} with (force)`)
		await c.end()
	}
	return { name, url: url.toString(), drop }
}
