import { LogOutIcon, MenuIcon, PanelLeftIcon } from '#app/components/icons.tsx'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useLocation } from 'react-router'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { LanguageSwitcher } from '#app/components/shell/language-switcher.tsx'
import { SidebarContent, type SidebarProps } from '#app/components/shell/sidebar-content.tsx'
import { MAIN_ID } from '#app/components/shell/skip-link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '#app/components/ui/sheet.tsx'
import { VerifyEmailBanner } from '#app/components/shell/verify-email-banner.tsx'
import { ZoneQuestion } from '#app/components/shell/zone-question.tsx'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { cn } from '#app/lib/utils.ts'

type AppShellProps = SidebarProps & {
	sidebarExpanded: boolean
	unverifiedEmail?: string | null
	/** The organization's zone while its owner has not confirmed it (ZoneQuestion). */
	zoneToConfirm?: string | null
	children: React.ReactNode
}

const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7
const MENU_TOGGLE_ID = 'menu-toggle'

/**
 * docs/product.md, App shell and sidebar: a collapsible sidebar (16rem, 3rem as icons; an 18rem sheet under 768px) whose
 * state lives in the sidebar:state cookie, toggled by Ctrl/Cmd+B, and a top bar. Without
 * JavaScript the toggle posts to /preferences, and on a phone a checkbox over the menu icon shows
 * the same sidebar as the menu (CSS only), so the server renders the sidebar once.
 */
export function AppShell({ sidebarExpanded, unverifiedEmail, zoneToConfirm, children, ...sidebar }: AppShellProps) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const location = useLocation()
	const [expanded, setExpanded] = useState(sidebarExpanded)
	// The mobile sheet is open for the visit of the page it was opened on: any navigation closes
	// it, to the same page too (each navigation is a new location key).
	const [sheetOpenedAt, setSheetOpenedAt] = useState<string | null>(null)
	const mobileOpen = sheetOpenedAt === location.key

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
			{hydrated ? null : (
				// Transparent, over the header's menu icon, and before the sidebar: it is the first tab stop
				// on a phone, and the sidebar (its peer) follows it.
				<input
					type="checkbox"
					id={MENU_TOGGLE_ID}
					aria-label={t('sidebar.openMenu')}
					aria-controls="app-sidebar"
					className="peer fixed top-2.5 left-3 z-40 size-9 cursor-pointer appearance-none rounded-md outline-none hover:bg-foreground/5 checked:bg-foreground/10 focus-visible:ring-2 focus-visible:ring-ring md:hidden"
				/>
			)}
			<aside
				id="app-sidebar"
				data-state={expanded ? 'expanded' : 'collapsed'}
				aria-label={t('sidebar.label')}
				className={cn(
					'fixed top-14 bottom-0 left-0 z-40 hidden w-72 shrink-0 flex-col overflow-y-auto border-r bg-sidebar text-sidebar-foreground shadow-lg peer-checked:flex',
					'md:sticky md:top-0 md:flex md:h-svh md:overflow-visible md:shadow-none md:transition-[width] md:duration-200',
					expanded ? 'md:w-64' : 'md:w-12',
				)}
			>
				<SidebarContent {...sidebar} collapsed={!expanded} />
			</aside>
			<div className="flex min-w-0 flex-1 flex-col">
				<header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background px-3 md:px-4">
					{hydrated ? (
						<Sheet open={mobileOpen} onOpenChange={(open) => setSheetOpenedAt(open ? location.key : null)}>
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
						// The checkbox above this icon opens the menu.
						<span className="flex size-9 shrink-0 items-center justify-center md:hidden" aria-hidden="true">
							<MenuIcon className="size-4" />
						</span>
					)}
					<AppForm
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
					</AppForm>
					<p className="truncate text-sm font-medium" data-testid="current-organization" title={sidebar.organization.name}>
						{sidebar.organization.name}
					</p>
					<div className="ml-auto flex items-center gap-2">
						<LanguageSwitcher iconOnPhones />
						<AppForm method="post" action="/auth/sign-out">
							<Button type="submit" variant="ghost" size="sm">
								<LogOutIcon aria-hidden="true" />
								<span className="hidden sm:inline">{t('actions.signOut')}</span>
								<span className="sr-only sm:hidden">{t('actions.signOut')}</span>
							</Button>
						</AppForm>
					</div>
				</header>
				{unverifiedEmail ? <VerifyEmailBanner email={unverifiedEmail} here={here} /> : null}
				{zoneToConfirm ? <ZoneQuestion zone={zoneToConfirm} here={here} /> : null}
				<main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 p-4 md:p-6">
					{children}
				</main>
			</div>
		</div>
	)
}
