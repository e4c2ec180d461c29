import { NavLink } from '#app/components/link.tsx'
import { cn } from '#app/lib/utils.ts'

/**
 * A screen's tabs as links (each tab an address of its own, so it can be bookmarked and works
 * without JavaScript); the current one is marked with aria-current by NavLink.
 */
export function TabNav({ label, tabs }: { label: string; tabs: { to: string; label: string; end?: boolean }[] }) {
	return (
		<nav aria-label={label} className="flex w-fit max-w-full flex-wrap gap-1 rounded-lg bg-muted p-1">
			{tabs.map((tab) => (
				<NavLink
					key={tab.to}
					to={tab.to}
					end={tab.end}
					className={({ isActive }) =>
						cn(
							'rounded-md px-3 py-1.5 text-sm font-medium text-foreground/75 transition-colors hover:text-foreground',
							isActive && 'bg-background text-foreground shadow-sm',
						)
					}
				>
					{tab.label}
				</NavLink>
			))}
		</nav>
	)
}
