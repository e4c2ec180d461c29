import { LogOutIcon, MenuIcon, PanelLeftIcon } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, useLocation } from 'react-router'
import { LanguageSwitcher } from '#app/components/language-switcher.tsx'
import { SidebarContent, type SidebarProps } from '#app/components/sidebar-content.tsx'
import { MAIN_ID } from '#app/components/skip-link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '#app/components/ui/sheet.tsx'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { cn } from '#app/lib/utils.ts'

type AppShellProps = SidebarProps & { sidebarExpanded: boolean; children: React.ReactNode }

const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7

/**
 * docs/product.md, App shell and sidebar: a collapsible sidebar (16rem, 3rem as icons; an 18rem sheet under 768px) whose
 * state lives in the sidebar:state cookie, toggled by Ctrl/Cmd+B, and a top bar. Without
 * JavaScript the toggle posts to /preferences and the mobile sheet is a disclosure.
 */
export function AppShell({ sidebarExpanded, children, ...sidebar }: AppShellProps) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const location = useLocation()
	const [expanded, setExpanded] = useState(sidebarExpanded)
	// The mobile sheet is open for the page it was opened on: navigating closes it.
	const [sheetOpenedAt, setSheetOpenedAt] = useState<string | null>(null)
	const mobileOpen = sheetOpenedAt === location.pathname

	const toggle = useCallback(() => {
		setExpanded((value) => {
			const next = !value
			document.cookie = `sidebar:state=${next}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=lax${window.location.protocol === 'https:' ? '; secure' : ''}`
			return next
		})
	}, [])

	useEffect(() => {
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key.toLowerCase() === 'b' && (event.metaKey || event.ctrlKey)) {
				event.preventDefault()
				toggle()
			}
		}
		window.addEventListener('keydown', onKeyDown)
		return () => window.removeEventListener('keydown', onKeyDown)
	}, [toggle])

	const here = location.pathname + location.search
	return (
		<div className="flex min-h-svh">
			<aside
				id="app-sidebar"
				data-state={expanded ? 'expanded' : 'collapsed'}
				aria-label={t('sidebar.label')}
				className={cn(
					'sticky top-0 hidden h-svh shrink-0 flex-col border-r bg-sidebar text-sidebar-foreground transition-[width] duration-200 md:flex',
					expanded ? 'w-64' : 'w-12',
				)}
			>
				<SidebarContent {...sidebar} collapsed={!expanded} />
			</aside>
			<div className="flex min-w-0 flex-1 flex-col">
				<header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background px-3 md:px-4">
					{hydrated ? (
						<Sheet open={mobileOpen} onOpenChange={(open) => setSheetOpenedAt(open ? location.pathname : null)}>
							<SheetTrigger asChild>
								<Button variant="ghost" size="icon" className="md:hidden" aria-label={t('sidebar.openMenu')}>
									<MenuIcon />
								</Button>
							</SheetTrigger>
							<SheetContent side="left" className="w-72 p-0 sm:max-w-72" closeLabel={t('actions.close')}>
								<SheetTitle className="sr-only">{t('sidebar.label')}</SheetTitle>
								<SheetDescription className="sr-only">{t('sidebar.description')}</SheetDescription>
								<SidebarContent {...sidebar} collapsed={false} />
							</SheetContent>
						</Sheet>
					) : (
						<details className="md:hidden">
							<summary
								className="flex size-9 cursor-pointer list-none items-center justify-center rounded-md hover:bg-accent [&::-webkit-details-marker]:hidden"
								aria-label={t('sidebar.openMenu')}
							>
								<MenuIcon className="size-4" aria-hidden="true" />
							</summary>
							<nav
								aria-label={t('sidebar.label')}
								className="fixed inset-y-0 left-0 top-14 z-40 flex w-72 flex-col overflow-y-auto border-r bg-sidebar shadow-lg"
							>
								<SidebarContent {...sidebar} collapsed={false} />
							</nav>
						</details>
					)}
					<Form
						method="post"
						action="/preferences"
						className="hidden md:block"
						onSubmit={(event) => {
							event.preventDefault()
							toggle()
						}}
					>
						<input type="hidden" name="intent" value="sidebar" />
						<input type="hidden" name="state" value={expanded ? 'collapsed' : 'expanded'} />
						<input type="hidden" name="redirectTo" value={here} />
						<Button
							type="submit"
							variant="ghost"
							size="icon"
							aria-label={t('sidebar.toggle')}
							aria-controls="app-sidebar"
							aria-expanded={expanded}
							title={t('sidebar.shortcut')}
						>
							<PanelLeftIcon />
						</Button>
					</Form>
					<p className="truncate text-sm font-medium" data-testid="current-organization" title={sidebar.organization.name}>
						{sidebar.organization.name}
					</p>
					<div className="ml-auto flex items-center gap-2">
						<LanguageSwitcher />
						<Form method="post" action="/auth/sign-out">
							<Button type="submit" variant="ghost" size="sm">
								<LogOutIcon aria-hidden="true" />
								<span className="hidden sm:inline">{t('actions.signOut')}</span>
								<span className="sr-only sm:hidden">{t('actions.signOut')}</span>
							</Button>
						</Form>
					</div>
				</header>
				<main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 p-4 md:p-6">{children}</main>
			</div>
		</div>
	)
}
