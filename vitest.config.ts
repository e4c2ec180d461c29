import { defineConfig } from 'vitest/config'

// Separate from vite.config.ts: the React Router plugin has no place in unit or db tests.
// tests/db runs twice: against PGlite and against a PostgreSQL server.
export default defineConfig({
	resolve: { tsconfigPaths: true },
	test: {
		projects: [
			{
				extends: true,
				test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
			},
			{
				extends: true,
				test: {
					name: 'db-pglite',
					include: ['tests/db/**/*.test.ts'],
					globalSetup: ['tests/db/global-setup.ts'],
					setupFiles: ['tests/db/setup.ts'],
					env: { DB_TARGET: 'pglite' },
					testTimeout: 60_000,
					hookTimeout: 120_000,
				},
			},
			{
				extends: true,
				test: {
					name: 'db-pg',
					include: ['tests/db/**/*.test.ts'],
					globalSetup: ['tests/db/global-setup.ts'],
					setupFiles: ['tests/db/setup.ts'],
					env: { DB_TARGET: 'pg' },
					testTimeout: 60_000,
					hookTimeout: 120_000,
				},
			},
		],
	},
})
