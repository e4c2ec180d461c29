import { requireMember } from '#app/.server/auth/session.ts'
import { crmAccess } from '#app/.server/crm/access.ts'
import { boardAction } from '#app/.server/crm/board-actions.ts'
import { getBoard, memberChoices } from '#app/.server/crm/pipelines.ts'
import { listClientChoices } from '#app/.server/payments/clients.ts'
import { AddCardForm, Board } from '#app/components/crm/board.tsx'
import { CrmOffer } from '#app/components/crm/client-crm.tsx'
import { PipelineSettings, PipelinesHeader } from '#app/components/crm/pipelines.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { invariantResponse } from '#app/lib/errors.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/pipeline'

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pipeline', args.loaderData?.active ? args.loaderData.board.name : null)

/** A pipeline's board (docs/product.md, Clients › Pipelines): every change is a form post; drag and drop once scripts run. */
export async function loader({ params, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	invariantResponse(isUuid(params.pipelineId), 404)
	const access = await crmAccess(user.userId, organization.id)
	if (!access.pipelines) return { active: false as const, access }
	const [board, clients, members] = await Promise.all([
		getBoard(user.userId, organization.id, params.pipelineId),
		listClientChoices(user.userId, organization.id),
		memberChoices(user.userId, organization.id),
	])
	invariantResponse(board, 404)
	const on = new Set(board.cards.map((c) => c.clientId))
	return {
		active: true as const,
		access,
		board,
		members,
		manager: organization.role === 'owner' || organization.role === 'administrator',
		clients: clients.filter((c) => !on.has(c.id)).map((c) => ({ id: c.id, label: c.email ? `${c.name} <${c.email}>` : c.name })),
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	invariantResponse(isUuid(params.pipelineId), 404)
	const board = await getBoard(user.userId, organization.id, params.pipelineId)
	invariantResponse(board, 404)
	const form = await request.formData()
	return boardAction(
		{ userId: user.userId, organizationId: organization.id },
		params.pipelineId,
		form,
		(stageId) => board.stages.find((s) => s.id === stageId)?.name,
	)
}

export default function PipelineScreen({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('clients')
	if (!loaderData.active)
		return (
			<div className="grid min-w-0 grid-cols-1 gap-6">
				<PipelinesHeader back="clients" />
				<CrmOffer basicFields pipelines={false} />
			</div>
		)
	const { board } = loaderData
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<PipelinesHeader back="pipelines" />
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">{board.name}</h1>
				<p className="text-sm text-muted-foreground">{t('crm.pipelines.subtitle')}</p>
			</div>
			<AddCardForm clients={loaderData.clients} />
			<section aria-label={t('crm.pipelines.board')} className="grid min-w-0 gap-2">
				<Board stages={board.stages} cards={board.cards} members={loaderData.members} />
			</section>
			{loaderData.manager ? (
				<PipelineSettings key={board.stages.map((s) => s.id + s.name).join()} name={board.name} stages={board.stages} />
			) : null}
		</div>
	)
}

export function ErrorBoundary() {
	return <GeneralErrorBoundary />
}
