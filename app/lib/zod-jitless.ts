// The pages' CSP has no 'unsafe-eval'. Zod 4 probes for eval (`new Function('')`) when it builds
// its first object schema, to compile fast parsers; in the browser the refused probe is
// reported as a CSP violation (Chrome's issues panel, Lighthouse's best practices). Jitless
// mode skips the probe and parses the same way, without compiled code. Zod keeps its global
// configuration on `globalThis.__zod_globalConfig` (zod/v4/core/core.js), so it is set here
// without loading zod on pages that have no form (tests/unit/zod-jitless.test.ts checks the
// two meet). Imported by app/root.tsx, whose modules the browser evaluates before any route's.
export function zodJitlessInBrowser() {
	if (typeof document === 'undefined') return
	const g = globalThis as { __zod_globalConfig?: Record<string, unknown> }
	;(g.__zod_globalConfig ??= {}).jitless = true
}

zodJitlessInBrowser()
