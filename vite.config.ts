import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

const SHARED_SMALL_MODULES = {
	name: 'shared',
	test: /[\\/](app[\\/](components|lib)|node_modules[\\/]lucide-react)[\\/]/,
	maxModuleSize: 3000,
	minShareCount: 15,
}

export default defineConfig(({ isSsrBuild }) => ({
	plugins: [tailwindcss(), reactRouter()],
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
