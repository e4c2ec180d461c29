import { randomBytes } from 'node:crypto'
import { Outlet, redirect } from 'react-router'
import { emailVerifiedContext, requireMember, requireSignedInMember } from '#app/.server/auth/session.ts'
import { publicWizardRedirect } from '#app/.server/booking/staff.ts'
import { catalogueT, localizeModule } from '#app/.server/marketplace/catalogue-text.ts'
import { activeModulesContext, formOrganizationContext, memberContext } from '#app/.server/context.ts'
import { listActiveModules } from '#app/.server/marketplace/modules.ts'
import { chosenOrganization, currentOrganizationCookie } from '#app/.server/organizations/current.ts'
import { readSidebarExpanded } from '#app/.server/account/sidebar.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppShell } from '#app/components/shell/app-shell.tsx'
import { keepDataAfterLostSave } from '#app/components/data-table/keep-edits.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { MAIN_ID } from '#app/components/shell/skip-link.tsx'
import type { Route } from './+types/layout'
import type { AppLayoutData } from '#app/lib/app-layout.ts'
import { isOwner } from '#app/lib/roles.ts'

/**
 * Every /app route runs with a signed-in user and a current organization, or leaves; except
 * `/app/booking?orgSlug=X`, the public wizard's old address, which goes there first.
 * A posted form acts on the organization it was rendered for (AppForm), which becomes the
 * current one; one the user no longer belongs to changes nothing (docs/decisions/029).
 */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request, context }, next) => {
		publicWizardRedirect(request)
		const formOrganization = context.get(formOrganizationContext)
		const { member, activeModules, emailVerified } = await requireSignedInMember(request, formOrganization)
		if (!member) throw redirect('/onboarding')
		if (formOrganization && member.organization.id !== formOrganization) {
			throw await redirectWithToast(pathOf(request), {
				type: 'error',
				title: 'common:sidebar.notAMember.title',
				description: 'common:sidebar.notAMember.description',
			})
		}
		context.set(memberContext, member)
		context.set(activeModulesContext, activeModules)
		context.set(emailVerifiedContext, emailVerified)
		const response = await next()
		if (formOrganization && formOrganization !== (await chosenOrganization(request))) {
			response.headers.append('set-cookie', await currentOrganizationCookie(formOrganization))
		}
		return response
	},
]

/** The page a form was posted from, as a GET (a `.data` request's page too). */
function pathOf(request: Request) {
	const url = new URL(request.url)
	url.searchParams.delete('index')
	url.searchParams.delete('_routes')
	return url.pathname.replace(/\.data$/, '') + url.search
}

/** A table save that never reached the server changed nothing: the shell keeps its data. */
export const shouldRevalidate = keepDataAfterLostSave

export async function loader({ request, context }: Route.LoaderArgs) {
	const member = requireMember(context)
	// Read with the member before any action ran; after an action (a module just activated) read again.
	const modules = ['GET', 'HEAD'].includes(request.method)
		? context.get(activeModulesContext)
		: await listActiveModules(member.user.userId, member.organization.id, member.organization.role)
	const data = {
		user: { email: member.user.email, fullName: member.user.fullName, avatarUrl: member.user.avatarUrl },
		organization: member.organization,
		memberships: member.memberships.map((m) => ({ id: m.id, name: m.name, role: m.role })),
		activeModules: modules.map((m) => localizeModule(catalogueT(context), { ...m, id: m.moduleId })),
		sidebarExpanded: readSidebarExpanded(request),
		// The address to verify, while it is not (the shell's reminder, docs/decisions/037-verified-addresses.md).
		unverifiedEmail: context.get(emailVerifiedContext) ? null : member.user.email,
		// The zone to ask the owner about while nobody chose it (docs/product.md, Time zones).
		zoneToConfirm: isOwner(member.organization.role) && !member.organization.timezoneConfirmed ? member.organization.timezone : null,
		// A new one on every load: the save key of the edit forms on this page (SAVE_KEY_FIELD).
		saveKey: randomBytes(18).toString('base64url'),
	}
	return data satisfies AppLayoutData
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
	return (
		<AppShell {...loaderData}>
			<Outlet />
		</AppShell>
	)
}

/**
 * A screen that failed without a boundary of its own, or the layout's own loader. With the
 * layout's data the shell stays (sidebar and top bar) around the message; without it, the
 * message stands alone.
 */
export function ErrorBoundary({ loaderData }: Route.ErrorBoundaryProps) {
	const data = loaderData as Route.ComponentProps['loaderData'] | undefined
	if (!data) {
		return (
			<main id={MAIN_ID} tabIndex={-1} className="mx-auto flex min-h-svh max-w-lg flex-col justify-center p-6">
				<GeneralErrorBoundary />
			</main>
		)
	}
	return (
		<AppShell {...data}>
			<GeneralErrorBoundary />
		</AppShell>
	)
}
