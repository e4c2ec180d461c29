import { requireMember } from '#app/.server/auth/session.ts'
import { crmAccess } from '#app/.server/crm/access.ts'
import { createPipeline } from '#app/.server/crm/board-actions.ts'
import { listPipelines } from '#app/.server/crm/pipelines.ts'
import { CrmOffer } from '#app/components/crm/client-crm.tsx'
import { CreatePipelineForm, PipelineList, PipelinesHeader } from '#app/components/crm/pipelines.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/pipelines'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('pipelines')

/** The organization's pipelines (docs/product.md, Clients › Pipelines), with CRM Pipelines; owners and administrators create them. */
export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const access = await crmAccess(user.userId, organization.id)
	return {
		access,
		manager: organization.role === 'owner' || organization.role === 'administrator',
		pipelines: access.pipelines ? await listPipelines(user.userId, organization.id) : [],
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	return createPipeline({ userId: user.userId, organizationId: organization.id }, await request.formData())
}

export default function PipelinesScreen({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('clients')
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<PipelinesHeader back="clients" />
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('crm.pipelines.title')}</h1>
				<p className="text-sm text-muted-foreground">{t('crm.pipelines.subtitle')}</p>
			</div>
			{loaderData.access.pipelines ? (
				<>
					<PipelineList pipelines={loaderData.pipelines} />
					<CreatePipelineForm manager={loaderData.manager} />
				</>
			) : (
				<CrmOffer basicFields pipelines={false} />
			)}
		</div>
	)
}
