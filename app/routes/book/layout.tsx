import { useTranslation } from '#app/lib/use-translation.ts'
import { data, isRouteErrorResponse, Outlet, redirect, useMatches, useNavigation, useRouteError, useRouteLoaderData } from 'react-router'
import { resolveOldSlug } from '#app/.server/organizations/settings.ts'
import { organizationFor } from '#app/.server/booking/public/organization.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { BookLanguageSwitcher, DETAILS_FORM_ID, useVisitorZone, WIZARD_ROOT } from '#app/components/booking/book-wizard.tsx'
import { MAIN_ID } from '#app/components/shell/skip-link.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { pageMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/layout'

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'book', args.loaderData?.org.name)

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const found = await organizationFor(context, params.orgSlug)
	if (!found) {
		// A slug the organization changed within the last 90 days still leads to its page.
		const current = await resolveOldSlug(params.orgSlug)
		if (current) {
			const url = new URL(request.url)
			const prefix = `/book/${encodeURIComponent(params.orgSlug)}`
			const rest = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : ''
			throw redirect(`/book/${encodeURIComponent(current)}${rest}${url.search}`, 301)
		}
		throw data({ orgNotFound: true }, { status: 404 })
	}
	return { org: found.org, timezone: found.catalogue.settings.timezone }
}

/** The public booking pages: the organization's header and colours around every step. */
export default function BookLayout({ loaderData }: Route.ComponentProps) {
	const { org, timezone } = loaderData
	const { t } = useTranslation('book')
	const loading = useNavigation().state !== 'idle'
	useVisitorZone(timezone)
	// On the details step the language menu posts the form, so that what was typed stays.
	const onDetails = useMatches().some((m) => m.id === 'routes/book/details')
	return (
		<div style={{ '--brand': org.branding.primary } as React.CSSProperties} className={`${WIZARD_ROOT} min-h-svh bg-muted/30`}>
			{/*
			 * Enter in a field of the details form presses the form's first submit button in the page's
			 * order, which would be the language menu's (in the header, posting that form): this one,
			 * before them, is Continue's stand-in.
			 */}
			{onDetails ? <button type="submit" form={DETAILS_FORM_ID} hidden tabIndex={-1} /> : null}
			<header className="border-b bg-background">
				<div className="mx-auto flex max-w-2xl items-center gap-3 px-4 py-4">
					{org.branding.logoUrl ? (
						<img src={org.branding.logoUrl} alt="" width={100} height={40} className="h-10 w-auto max-w-40 rounded-md object-contain" />
					) : (
						<span
							aria-hidden="true"
							className="flex size-10 items-center justify-center rounded-md bg-[var(--brand)] text-lg font-bold text-white"
						>
							{org.name.slice(0, 1).toUpperCase()}
						</span>
					)}
					<div className="min-w-0 flex-1">
						<p className="truncate font-semibold">{org.name}</p>
						<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
					</div>
					{loading ? <Spinner aria-label={t('loading')} className="size-5 text-[var(--brand)]" /> : null}
					<BookLanguageSwitcher formId={onDetails ? DETAILS_FORM_ID : undefined} />
				</div>
			</header>
			{/* One column no wider than the screen: a wider child (the row of days) scrolls inside it. */}
			<main id={MAIN_ID} tabIndex={-1} className="mx-auto grid max-w-2xl grid-cols-1 gap-6 px-4 py-6">
				<Outlet />
			</main>
		</div>
	)
}

/**
 * The refusals the booking pages explain in words of their own (booked.tsx throws
 * `bookingNotFound`, every wizard step `bookingsClosed`).
 */
function knownError(status: number, body: unknown) {
	if (status === 429) return 'rateLimited'
	if (status === 403 && body && typeof body === 'object' && 'bookingsClosed' in body) return 'bookingsClosed'
	if (status !== 404) return undefined
	return body && typeof body === 'object' && 'bookingNotFound' in body ? 'bookingNotFound' : 'orgNotFound'
}

export function ErrorBoundary() {
	const error = useRouteError()
	const { t } = useTranslation('book')
	const known = isRouteErrorResponse(error) ? knownError(error.status, error.data) : undefined
	// Set when the organization was found (a step refused, not the layout's own loader).
	const org = useRouteLoaderData<typeof loader>('routes/book/layout')?.org
	if (known) {
		return (
			<main id={MAIN_ID} tabIndex={-1} className="mx-auto flex min-h-svh max-w-lg flex-col justify-center gap-3 p-6 text-center">
				<h1 className="text-2xl font-semibold">{t(`${known}.title`)}</h1>
				<p className="text-muted-foreground">{t(`${known}.description`, { organization: org?.name })}</p>
			</main>
		)
	}
	return (
		<main id={MAIN_ID} tabIndex={-1} className="mx-auto flex min-h-svh max-w-lg flex-col justify-center p-6">
			<GeneralErrorBoundary />
		</main>
	)
}
