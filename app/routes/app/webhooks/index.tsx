import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { requireRole } from '#app/.server/auth/session.ts'
import { createEndpoint, deleteEndpoint, getWebhooks, resendDelivery, setEndpointEnabled } from '#app/.server/webhooks/endpoints.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { DeliveryLog, EndpointList, NewEndpointForm, SecretOnce } from '#app/components/webhooks/webhooks-screen.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { createEndpointSchema } from '#app/lib/schemas/webhooks.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/index'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('webhooks')

const PATH = '/app/webhooks'

/**
 * Webhooks (docs/product.md, Webhooks; docs/webhooks.md): the addresses that receive signed
 * events, each paused, resumed or removed (after a confirmation, `?remove=<id>`), and the
 * delivery log with a resend button. Owners and administrators only; without Automation
 * Unlimited the screen says what it would do and links to the marketplace.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireRole(context, 'owner', 'administrator')
	const webhooks = await getWebhooks(user.userId, organization.id)
	const remove = new URL(request.url).searchParams.get('remove')
	const removing = webhooks.endpoints.find((e) => e.id === remove)?.id ?? null
	return { ...webhooks, removing, timezone: organization.timezone }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireRole(context, 'owner', 'administrator')
	const formData = await request.formData()
	const intent = formData.get('intent')
	if (intent === 'create') {
		const submission = parseWithZod(formData, { schema: createEndpointSchema })
		if (submission.status !== 'success') return data({ result: submission.reply(), created: null, formError: undefined }, { status: 400 })
		const created = await createEndpoint(user.userId, organization.id, submission.value)
		if (created.ok) return { result: submission.reply({ resetForm: true }), created: { url: submission.value.url, secret: created.secret } }
		if (created.code === 'address_refused' || created.code === 'address_unresolved') {
			const key = created.code === 'address_refused' ? 'addressRefused' : 'addressUnresolved'
			return data({ result: submission.reply({ fieldErrors: { url: [key] } }), created: null, formError: undefined }, { status: 400 })
		}
		if (created.code === 'endpoint_limit')
			return data({ result: submission.reply(), created: null, formError: 'endpointLimit' }, { status: 400 })
		errorResponse(403, 'forbidden')
	}
	if (intent === 'delete') {
		const id = formData.get('endpointId')
		if (!isUuid(id) || !(await deleteEndpoint(user.userId, organization.id, id))) errorResponse(404, 'notFound')
		return redirectWithToast(PATH, { type: 'success', title: 'webhooks:toast.deleted' })
	}
	if (intent === 'pause' || intent === 'resume') {
		const id = formData.get('endpointId')
		if (!isUuid(id) || !(await setEndpointEnabled(user.userId, organization.id, id, intent === 'resume'))) errorResponse(404, 'notFound')
		return redirectWithToast(PATH, { type: 'success', title: `webhooks:toast.${intent === 'pause' ? 'paused' : 'resumed'}` })
	}
	if (intent === 'resend') {
		const id = formData.get('deliveryId')
		if (!isUuid(id)) errorResponse(404, 'notFound')
		const resent = await resendDelivery(user.userId, organization.id, id)
		if (!resent.ok) {
			if (resent.code === 'not_found') errorResponse(404, 'notFound')
			errorResponse(403, 'forbidden')
		}
		return redirectWithToast(PATH, { type: 'success', title: 'webhooks:toast.resent' })
	}
	return errorResponse(400, 'badRequest')
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('webhooks')
	const created = actionData && 'created' in actionData ? actionData.created : null
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
				<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
			</div>
			{loaderData.owned ? (
				<>
					{created ? <SecretOnce url={created.url} secret={created.secret} /> : null}
					<NewEndpointForm
						result={actionData?.result}
						formError={actionData && 'formError' in actionData ? actionData.formError : undefined}
					/>
					<EndpointList endpoints={loaderData.endpoints} removing={loaderData.removing} />
					<DeliveryLog deliveries={loaderData.deliveries} timezone={loaderData.timezone} />
				</>
			) : (
				<ModuleOffer ns="webhooks" moduleId={MODULES.automation.id} testId="webhooks-inactive" />
			)}
		</div>
	)
}
