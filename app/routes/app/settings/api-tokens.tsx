import { data } from 'react-router'
import { createToken, listTokens, ownsApiUpgrade, revokeToken } from '#app/.server/api/tokens.ts'
import { requireMember } from '#app/.server/auth/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { ApiTokensScreen, type CreateState } from '#app/components/settings/api-tokens.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { createTokenSchema } from '#app/lib/schemas/api-tokens.ts'
import type { Route } from './+types/api-tokens'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

/** Personal API tokens, with CRM Enterprise (docs/product.md, API tokens; docs/api.md). */
export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const active = await ownsApiUpgrade(user.userId, organization.id)
	return { active, tokens: await listTokens(user.userId, organization.id) }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	const form = await request.formData()
	const intent = form.get('intent')
	if (intent === 'revoke') {
		const id = form.get('id')
		if (typeof id !== 'string' || !UUID.test(id)) errorResponse(400, 'badRequest')
		if (!(await revokeToken(user.userId, organization.id, id))) errorResponse(404, 'notFound')
		return redirectWithToast('/app/settings/api-tokens', { type: 'success', title: 'settings:apiTokens.revoked' })
	}
	if (intent !== 'create') errorResponse(400, 'badRequest')
	const name = form.get('name')
	const parsed = createTokenSchema.safeParse({ name: typeof name === 'string' ? name : undefined, scopes: form.getAll('scopes') })
	if (!parsed.success) {
		const errors: CreateState['errors'] = {}
		for (const issue of parsed.error.issues) {
			const field = issue.path[0] === 'name' ? 'name' : 'scopes'
			errors[field] ??= issue.path[0] === 'name' ? issue.message : 'scopesRequired'
		}
		return data({ created: null, errors, name: typeof name === 'string' ? name.slice(0, 100) : '' } satisfies CreateState, { status: 400 })
	}
	const made = await createToken(user.userId, organization.id, parsed.data.name, parsed.data.scopes)
	if (!made.ok) {
		return data({ created: null, errors: { form: made.error }, name: parsed.data.name } satisfies CreateState, {
			status: made.error === 'noUpgrade' ? 403 : 409,
		})
	}
	// Shown once, on this answer only: the token is not kept.
	return data({ created: { token: made.token, name: parsed.data.name }, errors: {}, name: '' } satisfies CreateState)
}

export default function ApiTokensTab({ loaderData, actionData }: Route.ComponentProps) {
	return <ApiTokensScreen active={loaderData.active} tokens={loaderData.tokens} state={actionData ?? null} />
}
