import { redirect } from 'react-router'
import { requireOwner } from '#app/.server/auth/session.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { newOrganizationZone } from '#app/.server/organizations/current.ts'
import { confirmZone } from '#app/.server/organizations/settings.ts'
import { safeRedirect } from '#app/.server/security.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { zoneName } from '#app/lib/format.ts'
import type { Route } from './+types/zone'

/**
 * The owner's answer to the shell's question about an organization still in UTC (ZoneQuestion,
 * docs/product.md, Time zones): `intent=use` with a zone of the list, or `intent=keep`. A plain
 * form post, so it works without JavaScript; the page it came from is shown again.
 */
export async function action({ request, context }: Route.ActionArgs) {
	const member = requireOwner(context)
	const form = await request.formData()
	const back = safeRedirect(form.get('redirectTo'), '/app/dashboard')
	const organizationId = member.organization.id
	const intent = form.get('intent')
	if (intent !== 'use' && intent !== 'keep') return errorResponse(400, 'badRequest')
	if (intent === 'keep') {
		await confirmZone(member.user.userId, organizationId, null)
		const zone = zoneName(member.organization.timezone, getLocale(context))
		return redirectWithToast(back, { type: 'success', title: 'common:zoneQuestion.kept', values: { zone } })
	}
	const chosen = newOrganizationZone(form.get('timezone'))
	if (!chosen.ok || !chosen.zone) return redirectWithToast(back, { type: 'error', title: 'common:zoneQuestion.invalid' })
	await confirmZone(member.user.userId, organizationId, chosen.zone)
	const zone = zoneName(chosen.zone, getLocale(context))
	return redirectWithToast(back, { type: 'success', title: 'common:zoneQuestion.saved', values: { zone } })
}

/** Nothing to show here: the question lives in the shell; Settings › Organization holds the zone. */
export function loader() {
	return redirect('/app/settings/organization')
}
