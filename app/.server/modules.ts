import { asUser } from './db/index.ts'

export type ActiveModule = { moduleId: string; name: string; icon: string | null }

/** The organization's activated modules, in activation order, for the sidebar. */
export async function listActiveModules(userId: string, organizationId: string): Promise<ActiveModule[]> {
	return asUser(userId, (trx) =>
		trx
			.selectFrom('organization_modules as om')
			.innerJoin('modules as m', 'm.id', 'om.module_id')
			.select(['m.id as moduleId', 'm.name', 'm.icon'])
			.where('om.organization_id', '=', organizationId)
			.orderBy('om.activated_at')
			.execute(),
	)
}
