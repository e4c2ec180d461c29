import { defineConfig } from 'vitest/config'

// Tests of the built server (`npm run build` first), in tests/scale: scale out (two instances on
// one PostgreSQL database behind a proxy the test starts) and starting as a deployment does.
// Separate from vitest.config.ts because they need the build, which the test command makes after
// the unit and database tests.
export default defineConfig({
	resolve: { tsconfigPaths: true },
	test: {
		name: 'scale',
		include: ['tests/scale/**/*.test.ts'],
		environment: 'node',
		testTimeout: 60_000,
		hookTimeout: 120_000,
		fileParallelism: false,
	},
})
