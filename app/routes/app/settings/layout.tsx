import { useTranslation } from 'react-i18next'
import { NavLink, Outlet } from 'react-router'
import { requireMember } from '#app/.server/auth/session.ts'
import { hasRole } from '#app/lib/roles.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { cn } from '#app/lib/utils.ts'
import type { Route } from './+types/layout'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('settings')

/** Settings' tabs, each a nested route; the profile is the index (docs/product.md, Settings). Members: owners and administrators. */
export function loader({ context }: Route.LoaderArgs) {
	const { organization } = requireMember(context)
	return { canManageMembers: hasRole(organization.role, ['owner', 'administrator']) }
}

export default function SettingsLayout({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('settings')
	const tabs = ['profile', 'organization', ...(loaderData.canManageMembers ? ['members'] : []), 'notifications']
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
				<p className="text-sm text-muted-foreground">{t('description')}</p>
			</div>
			<nav aria-label={t('tabs.label')} className="flex w-fit max-w-full flex-wrap gap-1 rounded-lg bg-muted p-1">
				{tabs.map((tab) => (
					<NavLink
						key={tab}
						to={tab === 'profile' ? '/app/settings' : `/app/settings/${tab}`}
						end
						className={({ isActive }) =>
							cn(
								'rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground',
								isActive && 'bg-background text-foreground shadow-sm',
							)
						}
					>
						{t(`tabs.${tab}`)}
					</NavLink>
				))}
			</nav>
			<Outlet />
		</div>
	)
}
