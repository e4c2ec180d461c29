import { data } from 'react-router'
import {
	clearHold,
	createRule,
	deleteRule,
	listRules,
	listRuns,
	moveRule,
	previewRule,
	requireRules,
	ruleChoices,
	rulesMember,
	setRuleEnabled,
} from '#app/.server/rules/rules.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { RuleForm } from '#app/components/rules/rule-form.tsx'
import { RuleLimitsNote, RuleList } from '#app/components/rules/rule-list.tsx'
import { RunHistory } from '#app/components/rules/run-history.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { BLANK_RULE, ruleFormText } from '#app/lib/schemas/rules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/index'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('rules')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization, active, canManage } = await rulesMember(context)
	if (!active) return { active: false as const }
	const { rules, limits } = await listRules(user.userId, organization.id)
	const [runs, choices] = await Promise.all([
		listRuns(user.userId, organization.id, limits.historyDays),
		canManage ? ruleChoices(user.userId, organization.id) : Promise.resolve({ clients: [], members: [] }),
	])
	// A learned alias (the import's review queue links here): the payer and the client it went to.
	const params = new URL(request.url).searchParams
	const payer = (params.get('payer') ?? '').slice(0, 200)
	const client = params.get('client') ?? ''
	const learned = payer && isUuid(client) && choices.clients.some((c) => c.id === client) ? { payer, client } : null
	const start = learned ? { ...BLANK_RULE, name: payer, payer, setClientId: client, setCategory: 'matched' } : BLANK_RULE
	return { active: true as const, canManage, rules, limits, runs, choices, start, learnedPayer: learned?.payer ?? null }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization, canManage } = await requireRules(context)
	const formData = await request.formData()
	const intent = formData.get('intent')
	const ruleId = String(formData.get('ruleId') ?? '')
	if (intent === 'clearHold') {
		if (!(await clearHold(user.userId, organization.id, String(formData.get('transactionId') ?? '')))) errorResponse(404, 'notFound')
		return redirectWithToast('/app/rules#history', { type: 'success', title: 'rules:toast.cleared' })
	}
	if (!['create', 'preview', 'move', 'toggle', 'delete'].includes(String(intent))) return errorResponse(400, 'badRequest')
	if (!canManage) errorResponse(403, 'forbidden')
	switch (intent) {
		case 'create':
		case 'preview': {
			const text = ruleFormText(formData)
			const outcome =
				intent === 'preview' ? await previewRule(user.userId, organization.id, text) : await createRule(user.userId, organization.id, text)
			if (outcome.kind === 'saved') return redirectWithToast('/app/rules', { type: 'success', title: 'rules:toast.saved' })
			const status = outcome.kind === 'errors' ? 400 : 200
			return data({ text, outcome }, { status })
		}
		case 'move': {
			const direction = formData.get('direction')
			if (direction !== 'up' && direction !== 'down') return errorResponse(400, 'badRequest')
			if (!(await moveRule(user.userId, organization.id, ruleId, direction))) errorResponse(404, 'notFound')
			return redirectWithToast('/app/rules', { type: 'success', title: 'rules:toast.moved' })
		}
		case 'toggle': {
			const enabled = formData.get('enabled')
			if (enabled !== 'true' && enabled !== 'false') return errorResponse(400, 'badRequest')
			if (!(await setRuleEnabled(user.userId, organization.id, ruleId, enabled === 'true'))) errorResponse(404, 'notFound')
			return redirectWithToast('/app/rules', { type: 'success', title: 'rules:toast.toggled' })
		}
		default: {
			if (!(await deleteRule(user.userId, organization.id, ruleId))) errorResponse(404, 'notFound')
			return redirectWithToast('/app/rules', { type: 'success', title: 'rules:toast.deleted' })
		}
	}
}

export default function RulesScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('rules')
	return (
		<div className="grid min-w-0 max-w-5xl grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
				<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
			</div>
			{loaderData.active ? (
				<>
					<RuleLimitsNote limits={loaderData.limits} ruleCount={loaderData.rules.length} />
					<RuleList rules={loaderData.rules} canManage={loaderData.canManage} />
					{loaderData.canManage ? (
						<RuleForm
							key={actionData ? 'posted' : 'blank'}
							start={actionData?.text ?? loaderData.start}
							outcome={actionData?.outcome}
							choices={loaderData.choices}
							learnedPayer={loaderData.learnedPayer}
						/>
					) : (
						<p className="text-sm text-muted-foreground">{t('list.readOnly')}</p>
					)}
					<RunHistory runs={loaderData.runs} />
				</>
			) : (
				<ModuleOffer ns="rules" moduleId={MODULES.automation.id} />
			)}
		</div>
	)
}
