import { useTranslation } from '#app/lib/use-translation.ts'
import { Outlet } from 'react-router'
import { ownsApiUpgrade } from '#app/.server/api/tokens.ts'
import { requireMember } from '#app/.server/auth/session.ts'
import { TabNav } from '#app/components/tab-nav.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { canManageMembers, isOwner } from '#app/lib/roles.ts'
import type { Route } from './+types/layout'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('settings')

/**
 * Settings' tabs, each a nested route; the profile is the index (docs/product.md, Settings).
 * Members: owners and administrators. API tokens: where the organization has CRM Enterprise.
 * Audit log: owners, where the organization has CRM Enterprise.
 */
export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const apiTokens = await ownsApiUpgrade(user.userId, organization.id)
	return { canManageMembers: canManageMembers(organization.role), apiTokens, auditLog: apiTokens && isOwner(organization.role) }
}

export default function SettingsLayout({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('settings')
	const tabs = [
		'profile',
		'organization',
		...(loaderData.canManageMembers ? ['members'] : []),
		'notifications',
		...(loaderData.apiTokens ? ['api-tokens'] : []),
		...(loaderData.auditLog ? ['audit-log'] : []),
	]
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
				<p className="text-sm text-muted-foreground">{t('description')}</p>
			</div>
			<TabNav
				label={t('tabs.label')}
				tabs={tabs.map((tab) => ({ to: tab === 'profile' ? '/app/settings' : `/app/settings/${tab}`, label: t(`tabs.${tab}`), end: true }))}
			/>
			<Outlet />
		</div>
	)
}
