import { data, redirect } from 'react-router'
import { z } from 'zod'
import { getOptionalUser } from '#app/.server/auth/session.ts'
import { asUser } from '#app/.server/db/index.ts'
import { languageCookie } from '#app/.server/i18n.ts'
import { currentOrganizationCookie, listMemberships } from '#app/.server/organizations.ts'
import { safeRedirect, secureCookies } from '#app/.server/security.ts'
import { serializeSidebarCookie } from '#app/.server/sidebar.ts'
import { supportedLanguages } from '#app/lib/i18n.ts'
import type { Route } from './+types/preferences'

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
			break
		}
	}
	return redirect(back, { headers })
}

export function loader() {
	return redirect('/')
}
