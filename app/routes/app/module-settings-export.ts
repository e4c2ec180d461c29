import { requireMember } from '#app/.server/auth/session.ts'
import { getModuleDetail, mayUseModule } from '#app/.server/marketplace/modules.ts'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import type { Route } from './+types/module-settings-export'
import { isUuid } from '#app/lib/uuid.ts'

/** Export Settings (docs/product.md, Module detail): the module's saved configuration as a JSON download. */
export async function loader({ params, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	invariantResponse(isUuid(params.moduleId), 404)
	const detail = await getModuleDetail(user.userId, organization.id, params.moduleId)
	invariantResponse(detail?.record, 404)
	if (!mayUseModule(detail.record.visibility, organization.role)) errorResponse(403, 'forbidden')
	const body = {
		module: { id: detail.module.id, name: detail.module.name, version: detail.module.version },
		organization: { id: organization.id, name: organization.name },
		settings: { defaultVisibility: detail.record.visibility, emailNotifications: detail.record.emailNotifications },
		activeUpgrades: detail.upgrades.filter((u) => u.active).map((u) => ({ id: u.id, name: u.name })),
		activatedAt: detail.record.activatedAt,
		exportedAt: new Date().toISOString(),
	}
	const slug = detail.module.name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '')
	return new Response(JSON.stringify(body, null, 2), {
		headers: {
			'content-type': 'application/json; charset=utf-8',
			'content-disposition': `attachment; filename="${slug}-settings.json"`,
			'cache-control': 'no-store',
		},
	})
}
