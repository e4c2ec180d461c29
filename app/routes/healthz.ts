import { checkDatabase } from '#app/.server/startup.ts'
import { log } from '#app/.server/log.ts'

export async function loader() {
	try {
		await checkDatabase()
		return Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } })
	} catch (error) {
		log({ event: 'healthz_failed', error: String(error) })
		return Response.json({ status: 'error' }, { status: 503, headers: { 'cache-control': 'no-store' } })
	}
}
