import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

export default defineConfig({
	plugins: [tailwindcss(), reactRouter()],
	resolve: { tsconfigPaths: true },
	optimizeDeps: {
		exclude: ['@electric-sql/pglite', 'kysely', 'kysely-pglite-dialect', 'pg'],
	},
	ssr: {
		external: ['@electric-sql/pglite', 'pg', 'nodemailer'],
	},
})
