import { redirect } from 'react-router'
import { requireMember } from '#app/.server/auth/session.ts'
import { crmAccess, CRM_MODULE_PAGE } from '#app/.server/crm/access.ts'
import { exportClients } from '#app/.server/crm/transfer.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { CLIENT_DEFAULT_SORT, CLIENT_SORTS } from '#app/lib/schemas/clients.ts'
import { readTableState } from '#app/lib/table-params.ts'
import type { Route } from './+types/export'

/**
 * The clients list as filtered (search, tag, sort), every page, as CSV (docs/product.md, Clients ›
 * CSV import and export; CRM Basic Fields): the header in the member's language, the values as
 * saved, streamed in batches. Without the upgrade, the module's page, where it is offered.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	if (!(await crmAccess(user.userId, organization.id)).basicFields) throw redirect(CRM_MODULE_PAGE)
	const params = new URL(request.url).searchParams
	const state = readTableState(params, CLIENT_SORTS, CLIENT_DEFAULT_SORT)
	const tag = (params.get('tag') ?? '').trim().toLowerCase().slice(0, 40)
	const chunks = exportClients(user.userId, organization.id, { q: state.q, tag, sort: state.sort, dir: state.dir }, getLocale(context))
	const encoder = new TextEncoder()
	const stream = new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				const next = await chunks.next()
				if (next.done) controller.close()
				else controller.enqueue(encoder.encode(next.value))
			} catch (error) {
				controller.error(error)
			}
		},
		async cancel() {
			await chunks.return(undefined)
		},
	})
	return new Response(stream, {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': 'attachment; filename="clients.csv"',
			'cache-control': 'no-store',
		},
	})
}
