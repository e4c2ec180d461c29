import { data } from 'react-router'
import { requireRole } from '#app/.server/auth/session.ts'
import { deleteParsingRule, listParsingRules, ruleFormText, submitParsingRule } from '#app/.server/payments/email-sync/custom-rules.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { ParsingRuleForm, ParsingRuleList } from '#app/components/marketplace/parsing-rules.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { BLANK_PARSING_RULE, parsingRuleFormText } from '#app/lib/schemas/parsing-rules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/parsing-rules'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('parsingRules')

/** The screen's address, in the email module's area (the P2P module's page, whose upgrade Email Pro is). */
const PATH = `/app/modules/${MODULES.p2p.id}/parsing-rules`

/**
 * Custom parsing rules (docs/product.md, Email sync › Custom parsing rules): how the email sync
 * reads the notices of a sender the app does not know. Owners and administrators only; without
 * Email Pro the screen says what it would do and links to the module's page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireRole(context, 'owner', 'administrator')
	const { owned, rules } = await listParsingRules(user.userId, organization.id)
	const params = new URL(request.url).searchParams
	const editing = rules.find((r) => r.id === params.get('edit')) ?? null
	const deleting = rules.find((r) => r.id === params.get('delete')) ?? null
	return {
		owned,
		rules,
		path: PATH,
		editing: editing ? { id: editing.id, start: ruleFormText(editing) } : null,
		deleting: deleting ? { id: deleting.id, name: deleting.name } : null,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireRole(context, 'owner', 'administrator')
	const formData = await request.formData()
	const intent = formData.get('intent')
	if (intent === 'test' || intent === 'save') {
		const rawId = formData.get('ruleId')
		const ruleId = rawId === null || rawId === '' ? null : isUuid(rawId) ? rawId : errorResponse(404, 'notFound')
		const text = parsingRuleFormText(formData)
		const outcome = await submitParsingRule(user.userId, organization.id, ruleId, text, {
			save: intent === 'save',
			timeZone: organization.timezone,
		})
		if (outcome.kind === 'saved') return redirectWithToast(PATH, { type: 'success', title: 'parsing-rules:toast.saved' })
		if (outcome.kind === 'errors' && outcome.errors.form === 'forbidden') errorResponse(403, 'forbidden')
		if (outcome.kind === 'errors' && outcome.errors.form === 'notFound') errorResponse(404, 'notFound')
		return data({ text, ruleId, outcome }, { status: outcome.kind === 'errors' ? 400 : 200 })
	}
	if (intent === 'delete') {
		const id = formData.get('ruleId')
		if (!isUuid(id) || !(await deleteParsingRule(user.userId, organization.id, id))) errorResponse(404, 'notFound')
		return redirectWithToast(PATH, { type: 'success', title: 'parsing-rules:toast.deleted' })
	}
	return errorResponse(400, 'badRequest')
}

export default function ParsingRulesScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('parsing-rules')
	const { owned, rules, path, editing, deleting } = loaderData
	const ruleId = actionData?.ruleId ?? editing?.id ?? null
	const start = actionData?.text ?? editing?.start ?? BLANK_PARSING_RULE
	return (
		<div className="grid min-w-0 max-w-5xl grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
				<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
			</div>
			{owned ? (
				<>
					{deleting ? (
						<ConfirmCard
							id="delete-parsing-rule"
							title={t('delete.title', { name: deleting.name })}
							description={t('delete.description')}
							keep={{ to: path, label: t('delete.keep') }}
						>
							<AppForm method="post" action={path}>
								<input type="hidden" name="ruleId" value={deleting.id} />
								<Button type="submit" name="intent" value="delete" variant="destructive">
									{t('delete.confirm')}
								</Button>
							</AppForm>
						</ConfirmCard>
					) : null}
					<ParsingRuleList rules={rules} path={path} />
					<ParsingRuleForm
						key={`${ruleId ?? 'new'}-${actionData ? 'posted' : 'blank'}`}
						start={start}
						ruleId={ruleId}
						outcome={actionData?.outcome}
						path={path}
					/>
				</>
			) : (
				<ModuleOffer ns="parsing-rules" moduleId={MODULES.p2p.id} testId="parsing-rules-offer" />
			)}
		</div>
	)
}
