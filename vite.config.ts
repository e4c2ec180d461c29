import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'

const SHARED_SMALL_MODULES = {
	name: 'shared',
	test: /[\\/]app[\\/](components|lib)[\\/]/,
	maxModuleSize: 3000,
	minShareCount: 15,
}

/**
 * The embedded database's worker (app/.server/db/pglite-worker.js) becomes a file of the server
 * build, and the `new URL('./pglite-worker.js', import.meta.url)` that starts it points there,
 * from whichever chunk the starter lands in. Vite handles worker URLs only in browser builds; in
 * development and tests the URL points at the source file, which Node runs as it is. (Not
 * `import.meta.ROLLUP_FILE_URL_…`: Vite lists such files as assets, and React Router then moves
 * them to the public build/client.)
 */
function pgliteWorker(): Plugin {
	const starter = path.resolve('app/.server/db/pglite-thread.ts')
	const workerUrl = /new URL\((['"])\.\/pglite-worker\.js\1, import\.meta\.url\)/
	const placeholder = '__PGLITE_WORKER_FILE__'
	let reference = ''
	return {
		name: 'pglite-worker',
		apply: 'build',
		enforce: 'pre',
		applyToEnvironment: (environment) => environment.name === 'ssr',
		buildStart() {
			reference = this.emitFile({ type: 'chunk', id: path.resolve('app/.server/db/pglite-worker.js'), fileName: 'pglite-worker.js' })
		},
		transform(code, id) {
			if (id !== starter) return
			if (!workerUrl.test(code)) this.error(`${id} no longer starts the worker with new URL('./pglite-worker.js', import.meta.url)`)
			return code.replace(workerUrl, `new URL(${placeholder}, import.meta.url)`)
		},
		renderChunk(code, chunk) {
			if (!code.includes(placeholder)) return
			const file = path.posix.relative(path.posix.dirname(chunk.fileName), this.getFileName(reference))
			return code.replaceAll(placeholder, JSON.stringify(`./${file}`))
		},
	}
}

export default defineConfig(({ isSsrBuild }) => ({
	plugins: [tailwindcss(), reactRouter(), pgliteWorker()],
	// In the browser build, the small modules of our components and libraries and the icons that
	// fifteen or more routes share go into one chunk, instead of a chunk per sharing pattern:
	// the public booking details step loaded 30 files, now 15, and most pages load fewer bytes
	// too (bench/README.md, bundle.ts). A slow phone pays a round trip per file.
	build: isSsrBuild ? {} : { rolldownOptions: { output: { codeSplitting: { groups: [SHARED_SMALL_MODULES] } } } },
	resolve: { tsconfigPaths: true },
	optimizeDeps: {
		exclude: ['@electric-sql/pglite', 'kysely', 'kysely-pglite-dialect', 'pg'],
	},
	ssr: {
		external: ['@electric-sql/pglite', 'pg', 'nodemailer'],
	},
}))
