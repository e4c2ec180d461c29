import { Outlet, redirect } from 'react-router'
import { requireMember, requireUser } from '#app/.server/auth/session.ts'
import { memberContext } from '#app/.server/context.ts'
import { listActiveModules } from '#app/.server/modules.ts'
import { resolveMember } from '#app/.server/organizations.ts'
import { readSidebarExpanded } from '#app/.server/sidebar.ts'
import { AppShell } from '#app/components/app-shell.tsx'
import type { Route } from './+types/layout'

/** Every /app route runs with a signed-in user and a current organization, or leaves. */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request, context }, next) => {
		const user = await requireUser(request)
		const member = await resolveMember(request, user)
		if (!member) throw redirect('/onboarding')
		context.set(memberContext, member)
		return next()
	},
]

export async function loader({ request, context }: Route.LoaderArgs) {
	const member = requireMember(context)
	return {
		user: { email: member.user.email, fullName: member.user.fullName, avatarUrl: member.user.avatarUrl },
		organization: member.organization,
		memberships: member.memberships.map((m) => ({ id: m.id, name: m.name, role: m.role })),
		activeModules: await listActiveModules(member.user.userId, member.organization.id),
		sidebarExpanded: readSidebarExpanded(request),
	}
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
	return (
		<AppShell {...loaderData}>
			<Outlet />
		</AppShell>
	)
}
