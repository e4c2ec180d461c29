import {
	ArrowLeftRightIcon,
	BarChart3Icon,
	BlocksIcon,
	CalendarDaysIcon,
	CheckIcon,
	ChevronsUpDownIcon,
	FileTextIcon,
	GemIcon,
	LayoutDashboardIcon,
	ReceiptIcon,
	SettingsIcon,
	StoreIcon,
	TagsIcon,
	UsersIcon,
	WalletIcon,
	type IconComponent,
} from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useLocation } from 'react-router'
import { Link, NavLink } from '#app/components/link.tsx'
import type { ActiveModule } from '#app/.server/marketplace/modules.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ModuleIcon } from '#app/components/marketplace/module-icon.tsx'
import type { Membership } from '#app/.server/organizations/current.ts'
import { initials } from '#app/lib/initials.ts'
import { MODULES, registryModule } from '#app/lib/modules.ts'
import { cn } from '#app/lib/utils.ts'

export type SidebarProps = {
	user: { email: string; fullName: string | null; avatarUrl: string | null }
	organization: Membership
	memberships: Array<Pick<Membership, 'id' | 'name' | 'role'>>
	activeModules: ActiveModule[]
}

/**
 * The items of the sidebar, in the order of docs/product.md (App shell and sidebar); an item with
 * a `module` shows only while the organization has it active and the member may see it.
 */
const items: Array<{ to: string; key: string; icon: IconComponent; module?: string }> = [
	{ to: '/app/dashboard', key: 'dashboard', icon: LayoutDashboardIcon },
	{ to: '/app/module-marketplace', key: 'moduleMarketplace', icon: StoreIcon },
	{ to: '/app/booking', key: 'booking', icon: CalendarDaysIcon },
	{ to: '/app/transactions', key: 'transactions', icon: ArrowLeftRightIcon },
	{ to: '/app/clients', key: 'clients', icon: UsersIcon },
	{ to: '/app/invoices', key: 'invoices', icon: FileTextIcon, module: MODULES.invoicing.id },
	{ to: '/app/expenses', key: 'expenses', icon: ReceiptIcon, module: MODULES.expenses.id },
	{ to: '/app/owed', key: 'owed', icon: WalletIcon, module: MODULES.booking.id },
	{ to: '/app/categories', key: 'categories', icon: TagsIcon },
	{ to: '/app/reports', key: 'reports', icon: BarChart3Icon },
	{ to: '/app/plans', key: 'plans', icon: GemIcon },
	{ to: '/app/settings', key: 'settings', icon: SettingsIcon },
]

/**
 * The active modules the sidebar links to under "Active modules": only those with a screen of
 * their own, that is a screen no item above already leads to (Appointment Booking's screens sit
 * under "Booking"), so that each destination has one link (docs/product.md, App shell and sidebar).
 */
export function modulesWithOwnLink(activeModules: ActiveModule[]) {
	const covered = (to: string) => items.some((item) => to === item.to || to.startsWith(`${item.to}/`))
	return activeModules.filter((m) => {
		// The app's screens only: the public booking page is the visitors', not a sidebar destination.
		const screens = (registryModule(m.moduleId)?.screens ?? []).filter((s) => s.to.startsWith('/app/'))
		return screens.length === 0 || !screens.every((s) => covered(s.to))
	})
}

/**
 * `collapsed` (icons only) applies from the md breakpoint up: under it the same sidebar is the
 * phone's menu (app-shell.tsx), always with its labels.
 */
export function SidebarContent({ user, organization, memberships, activeModules, collapsed }: SidebarProps & { collapsed: boolean }) {
	const { t } = useTranslation()
	// `.nav-link` (app.css) is the look, the current page's included; the same for every link.
	const linkClass = collapsed ? 'nav-link md:justify-center md:px-0' : 'nav-link'
	const labelClass = collapsed ? 'md:sr-only' : undefined
	const moduleLinks = modulesWithOwnLink(activeModules)
	return (
		<div className="flex h-full min-h-0 flex-col">
			<div className={cn('border-b p-2', collapsed && 'md:px-1')}>
				<OrganizationSwitcher organization={organization} memberships={memberships} collapsed={collapsed} />
			</div>
			<nav aria-label={t('sidebar.navigation')} className="flex-1 overflow-y-auto p-2">
				<ul className="grid grid-cols-1 gap-1">
					{items
						.filter((item) => !item.module || activeModules.some((m) => m.moduleId === item.module))
						.map(({ to, key, icon: Icon }) => (
							<li key={to}>
								<NavLink to={to} className={linkClass} title={collapsed ? t(`nav.${key}`) : undefined}>
									<Icon className="size-4 shrink-0" aria-hidden="true" />
									<span className={labelClass}>{t(`nav.${key}`)}</span>
								</NavLink>
							</li>
						))}
				</ul>
				{/* Active modules whose screens are all items above get no second link; with none left, no section. */}
				{activeModules.length > 0 && moduleLinks.length === 0 ? null : (
					<section aria-labelledby="active-modules-heading" className="mt-6">
						<h2
							id="active-modules-heading"
							className={cn('px-2.5 pb-1 text-xs font-medium text-muted-foreground uppercase', collapsed && 'md:sr-only')}
						>
							{t('sidebar.activeModules')}
						</h2>
						{moduleLinks.length === 0 ? (
							<p className={cn('px-2.5 text-xs text-muted-foreground', collapsed && 'md:sr-only')}>{t('sidebar.noActiveModules')}</p>
						) : (
							<ul className="grid grid-cols-1 gap-1">
								{moduleLinks.map((m) => {
									return (
										<li key={m.moduleId}>
											<NavLink to={`/app/settings/modules/${m.moduleId}`} className={linkClass} title={m.name}>
												<ModuleIcon name={m.icon} className="size-4 shrink-0" />
												{/* A name longer than the sidebar ends in an ellipsis; the link's title carries it whole. */}
												<span className={collapsed ? 'min-w-0 truncate md:sr-only' : 'min-w-0 truncate'}>{m.name}</span>
											</NavLink>
										</li>
									)
								})}
							</ul>
						)}
					</section>
				)}
			</nav>
			<div className="border-t p-2">
				<Link
					to="/app/settings"
					className={cn('flex items-center gap-3 rounded-md p-2 hover:bg-sidebar-accent', collapsed && 'md:justify-center md:p-1')}
					aria-label={collapsed ? t('sidebar.userCard', { name: user.fullName ?? user.email }) : undefined}
				>
					{user.avatarUrl ? (
						<img
							src={user.avatarUrl}
							alt=""
							width={32}
							height={32}
							className="size-8 shrink-0 rounded-full object-cover"
							data-testid="sidebar-avatar"
						/>
					) : (
						<span
							className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
							aria-hidden="true"
						>
							{initials(user.fullName, user.email)}
						</span>
					)}
					<span className={cn('grid min-w-0 text-left text-sm leading-tight', collapsed && 'md:sr-only')}>
						<span className="truncate font-medium" title={user.fullName ?? user.email}>
							{user.fullName ?? user.email}
						</span>
						<span className="truncate text-xs text-muted-foreground" title={user.email}>
							{user.email}
						</span>
					</span>
				</Link>
			</div>
		</div>
	)
}

function OrganizationSwitcher({
	organization,
	memberships,
	collapsed,
}: Pick<SidebarProps, 'organization' | 'memberships'> & { collapsed: boolean }) {
	const { t } = useTranslation()
	const location = useLocation()
	const badge = (
		<span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground" aria-hidden="true">
			<BlocksIcon className="size-4" />
		</span>
	)
	const label = (
		<span className={cn('grid min-w-0 flex-1 text-left leading-tight', collapsed && 'md:sr-only')}>
			<span className="truncate text-sm font-semibold" title={organization.name}>
				{organization.name}
			</span>
			{/* Wraps rather than cuts: "Propietario · 14.000 engranajes restantes" is long. */}
			<span className="text-xs break-words text-muted-foreground">
				{t(`roles.${organization.role}`)} · {t('gears.remaining', { count: organization.gearsRemaining })}
			</span>
		</span>
	)
	if (memberships.length < 2) {
		return (
			<div className={cn('flex items-center gap-2 p-1', collapsed && 'md:justify-center md:p-0')}>
				{badge}
				{label}
			</div>
		)
	}
	return (
		<details data-menu key={organization.id} className="group relative">
			<summary
				className={cn(
					'flex cursor-pointer list-none items-center gap-2 rounded-md p-1 hover:bg-sidebar-accent [&::-webkit-details-marker]:hidden',
					collapsed && 'md:justify-center md:p-0',
				)}
				aria-label={t('sidebar.switchOrganization')}
			>
				{badge}
				{label}
				<ChevronsUpDownIcon className={cn('size-4 text-muted-foreground', collapsed && 'md:hidden')} aria-hidden="true" />
			</summary>
			<AppForm
				method="post"
				action="/preferences"
				className="absolute left-0 z-50 mt-1 grid w-60 gap-1 rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
			>
				<input type="hidden" name="intent" value="organization" />
				<input type="hidden" name="redirectTo" value={location.pathname} />
				<p className="px-2 py-1 text-xs text-muted-foreground">{t('sidebar.organizations')}</p>
				{memberships.map((m) => (
					<button
						key={m.id}
						type="submit"
						name="organizationId"
						value={m.id}
						aria-current={m.id === organization.id ? 'true' : undefined}
						className="flex items-center justify-between gap-2 rounded-sm px-2 py-1.5 text-left text-sm hover:bg-accent"
					>
						<span className="truncate" title={m.name}>
							{m.name}
						</span>
						{m.id === organization.id ? <CheckIcon className="size-4" aria-hidden="true" /> : null}
					</button>
				))}
			</AppForm>
		</details>
	)
}
