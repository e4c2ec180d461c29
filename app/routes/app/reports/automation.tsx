import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { requireMember } from '#app/.server/auth/session.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { AUTOMATION_EDITORS, getAutomation, saveAutomation } from '#app/.server/reports/automation.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AutomationForm, AutomationNotActive } from '#app/components/reports/automation-form.tsx'
import { ReportsTabs } from '#app/components/reports/reports-tabs.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { automationSchema } from '#app/lib/schemas/report-automation.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/automation'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('reportAutomation')

/**
 * Reports › Automation (docs/product.md, Reports › Automation): the scheduled reports and the
 * threshold alerts, and the members they are mailed to. Members read it; owners and
 * administrators save it. Without the Automation upgrade the screen says what it would do and
 * links to the marketplace, and saving answers 403.
 */
export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const automation = await getAutomation(user.userId, organization.id)
	return { ...automation, canEdit: automation.owned && AUTOMATION_EDITORS.includes(organization.role) }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	if (!AUTOMATION_EDITORS.includes(organization.role)) errorResponse(403, 'forbidden')
	const formData = await request.formData()
	if (formData.get('intent') !== 'save') errorResponse(400, 'badRequest')
	const submission = parseWithZod(formData, { schema: automationSchema.in(getLocale(context)) })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const saved = await saveAutomation(user.userId, organization.id, submission.value)
	if (!saved.ok) {
		if (saved.code === 'recipient_not_member')
			return data({ result: submission.reply({ fieldErrors: { recipients: ['recipientNotMember'] } }) }, { status: 400 })
		errorResponse(403, 'forbidden')
	}
	return redirectWithToast('/app/reports/automation', { type: 'success', title: 'automation:saved' })
}

export default function Automation({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('automation')
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
				<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
			</div>
			<ReportsTabs />
			{loaderData.owned ? (
				<AutomationForm
					settings={loaderData.settings}
					members={loaderData.members}
					canEdit={loaderData.canEdit}
					result={actionData?.result}
				/>
			) : (
				<AutomationNotActive />
			)}
		</div>
	)
}
