import { data } from 'react-router'
import { requireMember } from '#app/.server/auth/session.ts'
import { crmAccess, isCrmError } from '#app/.server/crm/access.ts'
import { commitUpload, previewUpload } from '#app/.server/crm/transfer.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { CrmOffer } from '#app/components/crm/client-crm.tsx'
import { ImportHeader, ImportPreview, UploadClientsForm } from '#app/components/crm/client-import.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/import'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('clientImport')

/** Client CSV import (docs/product.md, Clients › CSV import and export), with CRM Basic Fields. */
export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	return { access: await crmAccess(user.userId, organization.id) }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	if (!(await crmAccess(user.userId, organization.id)).basicFields)
		return redirectWithToast('/app/clients/import', { type: 'error', title: 'clients:crm.errors.upgrade_inactive' })
	const form = await request.formData()
	const intent = form.get('intent')
	if (intent === 'preview') {
		const outcome = await previewUpload(user.userId, organization.id, form)
		return outcome.ok ? { error: null, preview: outcome.preview } : data({ error: outcome.error, preview: null }, { status: 400 })
	}
	if (intent !== 'commit') return errorResponse(400, 'badRequest')
	const done = await commitUpload(user.userId, organization.id, form)
	if (done.ok) return redirectWithToast('/app/clients', { type: 'success', title: 'clients:crm.transfer.done', values: done.value })
	// A file that no longer reads (a forged text) is answered as an upload; a refusal of the database as its code.
	if (isCrmError(done.code)) return redirectWithToast('/app/clients/import', { type: 'error', title: `clients:crm.errors.${done.code}` })
	return data({ error: done.code, preview: null }, { status: 400 })
}

export default function ClientImportScreen({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<ImportHeader />
			{!loaderData.access.basicFields ? (
				<CrmOffer {...loaderData.access} pipelines />
			) : actionData?.preview ? (
				<ImportPreview preview={actionData.preview} />
			) : (
				<UploadClientsForm error={actionData?.error ?? null} />
			)}
		</div>
	)
}
