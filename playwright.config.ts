import { execFileSync } from 'node:child_process'
import { defineConfig, devices } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 4173)
const EMBEDDED_PORT = PORT + 1
// Per port, so that two runs on one machine (E2E_PORT=…) keep apart.
const E2E_DATA_DIR = (process.env.E2E_DATA_DIR ??= `tests/.tmp/e2e-data-${PORT}`)
const EMBEDDED_DATA_DIR = (process.env.E2E_EMBEDDED_DATA_DIR ??= `tests/.tmp/e2e-embedded-${PORT}`)

// The main e2e server runs on a fresh database of the test PostgreSQL server, so tests can
// arrange states no screen makes yet; workers inherit the URL through the environment.
process.env.E2E_DATABASE_URL ??= execFileSync('bash', ['scripts/e2e-database.sh'], { encoding: 'utf8' }).trim()

const chromium = {
	...devices['Desktop Chrome'],
	launchOptions: {
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-dev-shm-usage',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
			// Playwright's own list (a second --disable-features replaces the first), and the omnibox
			// popup that Chromium 156 renders in a renderer of its own for every new window, headless
			// too: about half the CPU of opening a context, and the suite opens one per test.
			`--disable-features=${[
				...['AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable'],
				...['LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect'],
				...['OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch'],
				...['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'],
			].join(',')}`,
		],
	},
}

// e2e runs against the built server (npm run build first) on a fresh embedded database.
export default defineConfig({
	testDir: 'tests/e2e',
	outputDir: `tests/.tmp/test-results-${PORT}`,
	fullyParallel: true,
	workers: 2,
	retries: process.env.CI ? 1 : 0,
	reporter: process.env.CI ? [['list']] : [['list']],
	timeout: 30_000,
	expect: { timeout: 7_000 },
	// A trace records a screencast of every page: about a quarter of the run's time on two cores. So only a
	// retry (CI retries once) records one; run with --trace on to get one locally.
	use: { baseURL: `http://localhost:${PORT}`, trace: 'on-first-retry', locale: 'en-US' },
	projects: [
		{ name: 'js', grepInvert: /@embedded/, use: { ...chromium } },
		// The attacker's walk (docs/security.md): mostly plain requests; the few pages it opens, without JavaScript.
		{ name: 'security', testDir: 'tests/security', use: { ...chromium, javaScriptEnabled: false } },
		// Without JavaScript: only the tests tagged @nojs.
		{ name: 'no-js', grep: /@nojs/, grepInvert: /@embedded/, use: { ...chromium, javaScriptEnabled: false } },
		// The default install: the embedded database with its demo data.
		{ name: 'embedded', grep: /@embedded/, use: { ...chromium, baseURL: `http://localhost:${EMBEDDED_PORT}` } },
	],
	webServer: [
		{
			command: `rm -rf ${E2E_DATA_DIR} && node server.js`,
			url: `http://localhost:${PORT}/healthz`,
			reuseExistingServer: false,
			timeout: 60_000,
			env: {
				PORT: String(PORT),
				HOST: '127.0.0.1',
				DATA_DIR: E2E_DATA_DIR,
				DATABASE_URL: process.env.E2E_DATABASE_URL,
				SESSION_SECRET: 'e2e-session-secret-of-at-least-32-characters',
				SECRETS_KEY: 'e2e-secrets-key-of-at-least-32-characters',
				LOGIN_MAX_FAILURES: '5',
				// Every test signs up from 127.0.0.1; the limit itself is tested in tests/db/hardening.test.ts.
				SIGNUP_MAX_PER_IP: '100000',
				// Every public booking comes from 127.0.0.1; the limits are tested in tests/db/public-booking.test.ts.
				BOOK_POSTS_PER_HOUR: '100000',
				BOOK_LOOKUPS_PER_HOUR: '100000',
				// Every wrong invoice token (the security walk's) comes from 127.0.0.1; the limit is tested in tests/db/invoice-delivery.test.ts.
				INVOICE_PAGE_MISSES_PER_HOUR: '100000',
				// The tests' dovecot (tests/support/imap-server.ts) listens on 127.0.0.1, refused by default.
				IMAP_ALLOW_PRIVATE_HOSTS: 'true',
				// The webhook receiver of tests/e2e/webhooks.spec.ts listens on 127.0.0.1, refused by default.
				WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
				// The plans page's "Contact us" (tests/e2e/plans.spec.ts).
				CONTACT_EMAIL: 'owner@p2p.example',
				LOG_LEVEL: 'silent',
			},
		},
		{
			command: `rm -rf ${EMBEDDED_DATA_DIR} && node server.js`,
			url: `http://localhost:${EMBEDDED_PORT}/healthz`,
			reuseExistingServer: false,
			timeout: 60_000,
			env: {
				PORT: String(EMBEDDED_PORT),
				HOST: '127.0.0.1',
				DATA_DIR: EMBEDDED_DATA_DIR,
				SIGNUP_MAX_PER_IP: '100000',
				LOG_LEVEL: 'silent',
			},
		},
	],
})
