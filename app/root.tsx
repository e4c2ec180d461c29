import { useEffect } from 'react'
import { useDetailsMenus } from '#app/lib/use-details-menus.ts'
import { useLinkNavigation } from '#app/components/link.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { formatValues } from '#app/lib/format.ts'
import { notify, TOAST_MS } from '#app/lib/notify.ts'
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData, type ShouldRevalidateFunction } from 'react-router'
import { Toaster } from 'sonner'
import { supabaseCookies } from '#app/.server/auth/middleware.ts'
import { responseDefaults } from '#app/.server/security.ts'
import { getLocale, i18nextMiddleware } from '#app/.server/i18n.ts'
import { requestGuard } from '#app/.server/request-guard.ts'
import { forgetReadsOnWrite } from '#app/.server/db/shared-reads.ts'
import { ensureStarted } from '#app/.server/startup.ts'
import { getToast, type Toast } from '#app/.server/toast.ts'
import { NavigationProgress } from '#app/components/shell/navigation-progress.tsx'
import { useNonce } from '#app/components/nonce.tsx'
import { FlashNotice } from '#app/components/shell/flash-notice.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { MAIN_ID, SkipLink } from '#app/components/shell/skip-link.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import '#app/lib/zod-jitless.ts'
import type { Route } from './+types/root'
import stylesheet from './styles/app.css?url'
import { saveNeverArrived } from '#app/components/data-table/keep-edits.ts'

export const middleware: Route.MiddlewareFunction[] = [
	async (_args, next) => {
		await ensureStarted()
		return next()
	},
	responseDefaults,
	supabaseCookies,
	i18nextMiddleware,
	requestGuard,
	forgetReadsOnWrite,
]

export const links: Route.LinksFunction = () => [
	// precedence: React emits the stylesheet ahead of the scripts' modulepreload links, so the one
	// render-blocking request is not queued behind two dozen scripts (bench/README.md, Lighthouse).
	{ rel: 'stylesheet', href: stylesheet, precedence: 'default' },
	{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

/**
 * A revalidation that no navigation or form caused (the booking calendar's live refresh) leaves
 * the root's data alone: the root loader reads the flash message, and a message set by another
 * tab's form (tabs share the cookie) would be taken here and never shown there.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, actionResult, defaultShouldRevalidate }) => {
	if (!formMethod && currentUrl.href === nextUrl.href) return false
	if (saveNeverArrived(actionResult)) return false
	return defaultShouldRevalidate
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const locale = getLocale(context)
	const { toast, headers } = await getToast(request)
	return data({ locale, toast }, { headers: headers ?? undefined })
}

export function Layout({ children }: { children: React.ReactNode }) {
	const nonce = useNonce()
	const rootData = useRouteLoaderData<typeof loader>('root')
	const { i18n } = useTranslation()
	const lang = rootData?.locale ?? i18n.language ?? 'en'
	return (
		<html lang={lang} dir={i18n.dir(lang)}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<Meta />
				<Links />
			</head>
			<body className="min-h-svh bg-background font-sans text-foreground antialiased">
				<SkipLink />
				{children}
				<ScrollRestoration nonce={nonce} />
				<Scripts nonce={nonce} />
			</body>
		</html>
	)
}

export default function App({ loaderData }: Route.ComponentProps) {
	const { i18n, t } = useTranslation()
	useDetailsMenus()
	useLinkNavigation()
	useEffect(() => {
		if (i18n.language !== loaderData.locale) void i18n.changeLanguage(loaderData.locale)
		document.documentElement.lang = loaderData.locale
		document.documentElement.dataset.hydrated = 'true'
		try {
			localStorage.setItem('lng', loaderData.locale)
		} catch {
			// storage unavailable: the cookie keeps the choice
		}
	}, [i18n, loaderData.locale])
	return (
		<>
			<NavigationProgress />
			<FlashToast toast={loaderData.toast} />
			<Outlet />
			<Toaster
				position="bottom-right"
				visibleToasts={1}
				duration={TOAST_MS}
				richColors
				closeButton
				containerAriaLabel={t('notifications')}
				toastOptions={{ closeButtonAriaLabel: t('closeNotification') }}
			/>
		</>
	)
}

/** The flash message: a toast with JavaScript, a notice rendered by the server without it. */
function FlashToast({ toast }: { toast: Toast | null }) {
	const { t, i18n } = useTranslation()
	useEffect(() => {
		if (!toast) return
		const values = formatValues(toast.values, i18n.language)
		notify(toast.type, t(toast.title, values), {
			id: toast.id,
			description: toast.description ? t(toast.description, values) : undefined,
		})
	}, [toast, t, i18n.language])
	return toast ? <FlashNotice toast={toast} /> : null
}

export const meta = titleMeta(null)

export function ErrorBoundary() {
	return (
		<main id={MAIN_ID} tabIndex={-1} className="mx-auto flex min-h-svh max-w-lg flex-col justify-center p-6">
			<GeneralErrorBoundary />
		</main>
	)
}
