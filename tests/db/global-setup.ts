/**
 * Migrates one database per run and shares it with every test file: on PGlite a migrated data
 * directory dumped to a file (each test file loads it in about half a second), on the
 * PostgreSQL server a fresh database that all files share (fixtures make their own users and
 * organizations, so files never see each other's data).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { closeDatabase, openDatabase } from '#app/.server/db/index.ts'
import { migrate } from '#app/.server/db/migrate.ts'

declare module 'vitest' {
	export interface ProvidedContext {
		dbTarget: 'pglite' | 'pg'
		pgliteImage: string
		databaseUrl: string
	}
}

export default async function setup(project: TestProject) {
	const target = project.name === 'db-pg' ? 'pg' : 'pglite'
	project.provide('dbTarget', target)
	if (target === 'pglite') {
		const dir = path.resolve('tests/.tmp')
		mkdirSync(dir, { recursive: true })
		const image = path.join(dir, `pglite-image-${process.pid}.tar.gz`)
		execFileSync('node_modules/.bin/tsx', ['tests/db/make-image.ts', image], { stdio: 'inherit' })
		project.provide('pgliteImage', image)
		project.provide('databaseUrl', '')
		return () => rmSync(image, { force: true })
	}
	const adminUrl = execFileSync('bash', ['scripts/pg-test-server.sh'], { encoding: 'utf8' }).trim()
	const name = `p2p_test_${Date.now()}_${process.pid}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	await admin.end()
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	await openDatabase({ kind: 'pg', url: url.toString(), max: 2 })
	await migrate()
	await closeDatabase()
	project.provide('pgliteImage', '')
	project.provide('databaseUrl', url.toString())
	return async () => {
		const c = new pg.Client({ connectionString: adminUrl })
		await c.connect()
		await c.query(`drop database if exists ${name} with (force)`)
		await c.end()
	}
}
