export type ActiveModule = { moduleId: string; name: string; icon: string | null }

/** The organization's activated modules, for the sidebar. Filled by the marketplace. */
export async function listActiveModules(_userId: string, _organizationId: string): Promise<ActiveModule[]> {
	return []
}
