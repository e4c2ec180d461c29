import { data, matchPath, redirect } from 'react-router'
import { z } from 'zod'
import { getOptionalUser } from '#app/.server/auth/session.ts'
import { asUser } from '#app/.server/db/index.ts'
import { languageCookie } from '#app/.server/i18n.ts'
import { currentOrganizationCookie, listMemberships } from '#app/.server/organizations/current.ts'
import { safeRedirect, secureCookies } from '#app/.server/security.ts'
import { serializeSidebarCookie } from '#app/.server/account/sidebar.ts'
import { supportedLanguages } from '#app/lib/i18n.ts'
import type { Route } from './+types/preferences'
import { isUuid } from '#app/lib/uuid.ts'

/**
 * Small preferences set by plain form posts, so they work without JavaScript: the language,
 * the sidebar's state and the current organization. Each sets a cookie and goes back.
 */
const schema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('language'), language: z.enum(supportedLanguages), redirectTo: z.string().optional() }),
	z.object({ intent: z.literal('sidebar'), state: z.enum(['expanded', 'collapsed']), redirectTo: z.string().optional() }),
	z.object({ intent: z.literal('organization'), organizationId: z.uuid(), redirectTo: z.string().optional() }),
])

export async function action({ request }: Route.ActionArgs) {
	const parsed = schema.safeParse(Object.fromEntries(await request.formData()))
	if (!parsed.success) return data({ error: 'invalid' }, { status: 400 })
	const input = parsed.data
	const back = safeRedirect(input.redirectTo, '/')
	const headers = new Headers()
	switch (input.intent) {
		case 'language': {
			headers.append('set-cookie', await languageCookie.serialize(input.language, { secure: secureCookies() }))
			const user = await getOptionalUser(request)
			if (user) {
				await asUser(user.userId, (trx) =>
					trx.updateTable('profiles').set({ preferred_language: input.language }).where('user_id', '=', user.userId).execute(),
				)
			}
			break
		}
		case 'sidebar':
			headers.append('set-cookie', serializeSidebarCookie(input.state === 'expanded'))
			break
		case 'organization': {
			const user = await getOptionalUser(request)
			if (!user) return data({ error: 'unauthorized' }, { status: 401 })
			const { memberships } = await listMemberships(user.userId)
			if (!memberships.some((m) => m.id === input.organizationId)) return data({ error: 'forbidden' }, { status: 403 })
			headers.append('set-cookie', await currentOrganizationCookie(input.organizationId))
			return redirect(pageInOtherOrganization(back), { headers })
		}
	}
	return redirect(back, { headers })
}

/** Pages of one organization's row, and the list each belongs to. */
const ROW_PAGES: Array<[pattern: string, list: string]> = [
	['/app/clients/:id', '/app/clients'],
	['/app/transactions/import/:id', '/app/transactions/import/history'],
	['/app/booking/providers/:id/hours', '/app/booking/providers'],
]

/**
 * Where a switch of organization lands: the same page without its query (a day, a search, an
 * open question belong to the organization left), or, from a page of one of that organization's
 * rows (a client, an import, a provider's hours), the list it belongs to, not a 404.
 */
function pageInOtherOrganization(path: string) {
	const { pathname } = new URL(path, 'http://localhost')
	for (const [pattern, list] of ROW_PAGES) {
		const id = matchPath(pattern, pathname)?.params.id
		if (isUuid(id)) return list
	}
	return pathname
}

export function loader() {
	return redirect('/')
}
