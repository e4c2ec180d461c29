import { CheckIcon, CopyIcon, ExternalLinkIcon, Loader2Icon, StoreIcon } from '#app/components/icons.tsx'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Outlet, useNavigation } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { bookingAccess, publicBookingUrl } from '#app/.server/booking/staff.ts'
import { keepDataAfterLostSave } from '#app/components/data-table/keep-edits.ts'
import { TabNav } from '#app/components/tab-nav.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { cn } from '#app/lib/utils.ts'
import type { Route } from './+types/layout'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('booking')

/** The five tabs, each a nested route (docs/product.md, Booking). */
const TABS = ['calendar', 'services', 'providers', 'analytics', 'settings'] as const

/** How long the copied tick stays before the copy icon comes back. */
const COPIED_MS = 2000

export const shouldRevalidate = keepDataAfterLostSave

export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const access = await bookingAccess(user.userId, organization.id, organization.role)
	// A module configured for a higher role is not there for this member (docs/product.md, Roles).
	if (access === 'hidden') errorResponse(403, 'forbidden')
	return {
		active: access === 'usable',
		publicUrl: publicBookingUrl(organization.slug),
	}
}

export default function BookingLayout({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('booking')
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
				<p className="text-sm text-muted-foreground">{t('description')}</p>
			</div>
			{loaderData.active ? (
				<>
					<ShareableLink url={loaderData.publicUrl} />
					<TabNav label={t('tabs.label')} tabs={TABS.map((tab) => ({ to: `/app/booking/${tab}`, label: t(`tabs.${tab}`) }))} />
					<TabPanel />
				</>
			) : (
				<NotActive />
			)}
		</div>
	)
}

/**
 * The open tab. While another tab's data loads (with JavaScript), the current one dims under a
 * spinner, so a slow connection does not look like a click that did nothing.
 */
function TabPanel() {
	const { t } = useTranslation('booking')
	const navigation = useNavigation()
	const loading = navigation.state === 'loading' && navigation.location.pathname.startsWith('/app/booking/')
	return (
		<div aria-busy={loading} className="relative">
			{loading ? (
				<div className="absolute inset-x-0 top-0 z-10 flex justify-center pt-10">
					<span role="status" className="flex items-center gap-2 rounded-md border bg-background px-3 py-2 text-sm shadow-sm">
						<Loader2Icon aria-hidden="true" className="size-4 animate-spin" />
						{t('loading')}
					</span>
				</div>
			) : null}
			<div className={cn('transition-opacity', loading && 'pointer-events-none opacity-50')}>
				<Outlet />
			</div>
		</div>
	)
}

function NotActive() {
	const { t } = useTranslation('booking')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('inactive.title')}</h2>
				</CardTitle>
				<CardDescription>{t('inactive.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<Button asChild>
					<Link to="/app/module-marketplace">
						<StoreIcon aria-hidden="true" />
						{t('inactive.action')}
					</Link>
				</Button>
			</CardContent>
		</Card>
	)
}

/**
 * The public booking page's address: in a read-only field (select it and copy, also without
 * JavaScript), a copy button once the page runs scripts, and a link that opens it in a new tab.
 */
function ShareableLink({ url }: { url: string }) {
	const { t } = useTranslation('booking')
	const hydrated = useHydrated()
	const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
	const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
	useEffect(() => () => clearTimeout(timer.current), [])

	async function copy() {
		clearTimeout(timer.current)
		try {
			await navigator.clipboard.writeText(url)
			setState('copied')
			timer.current = setTimeout(() => setState('idle'), COPIED_MS)
		} catch {
			setState('failed')
		}
	}

	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('share.title')}</h2>
				</CardTitle>
				<CardDescription>{t('share.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-3">
				<div className="flex flex-wrap items-center gap-2">
					<Input
						readOnly
						value={url}
						aria-label={t('share.urlLabel')}
						title={url}
						// A line of its own on a phone, so the address shows whole (or nearly).
						className="min-w-0 flex-1 basis-full font-mono sm:basis-0"
						onFocus={(event) => event.currentTarget.select()}
					/>
					{hydrated ? (
						<Button type="button" variant="outline" onClick={copy} aria-live="polite">
							{state === 'copied' ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
							{state === 'copied' ? t('share.copied') : t('share.copy')}
						</Button>
					) : null}
					<Button asChild variant="outline">
						<a href={url} target="_blank" rel="noopener noreferrer">
							<ExternalLinkIcon aria-hidden="true" />
							{t('share.open')}
						</a>
					</Button>
				</div>
				{state === 'failed' ? (
					<Alert variant="destructive">
						<AlertTitle>{t('share.copyErrorTitle')}</AlertTitle>
						<AlertDescription>{t('share.copyErrorDescription')}</AlertDescription>
					</Alert>
				) : null}
			</CardContent>
		</Card>
	)
}
