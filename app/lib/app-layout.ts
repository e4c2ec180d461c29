/**
 * What the signed-in layout (app/routes/app/layout.tsx) gives every screen under it that
 * components read with `useRouteLoaderData(APP_LAYOUT_ROUTE)`. The layout's loader `satisfies`
 * it, so components depend on this contract and not on the route module (imports go one way:
 * routes → components → .server → lib).
 */
export const APP_LAYOUT_ROUTE = 'routes/app/layout'

export type AppLayoutData = {
	organization: { id: string }
	/** A new one on every load: the save key of the edit forms on this page. */
	saveKey: string
}
