import { useEffect, type ComponentProps } from 'react'
import { useLocation, useNavigate } from 'react-router'

/**
 * The app's links (docs/decisions/031-plain-links.md): plain anchors, marked `data-link`, that one
 * listener in the root (useLinkNavigation) hands to React Router's navigation once JavaScript
 * runs; without it they are ordinary links. React Router's own Link works each address out from
 * the route matches (two JSON encodings and a parse per link, on every render), which a page of
 * fifty links paid on every request. The addresses here are whole already.
 */
type LinkProps = Omit<ComponentProps<'a'>, 'href'> & {
	/** A path in the app (`/app/clients`), or a query on the current path (`?page=2`). */
	to: string
	/** Navigating in the app keeps the scroll position (React Router's `preventScrollReset`). */
	preventScrollReset?: boolean
	/** Loads the whole document, as a link without JavaScript does (a download, a page that starts afresh). */
	reloadDocument?: boolean
}

export function Link({ to, preventScrollReset, reloadDocument, children, ...props }: LinkProps) {
	const { pathname } = useLocation()
	const href = hrefOf(to, pathname)
	return (
		<a href={href} data-link={reloadDocument ? undefined : preventScrollReset ? 'keep-scroll' : ''} {...props}>
			{children}
		</a>
	)
}

/** The address a link goes to: a query goes on the current path; an empty query ("?") is left off. */
export function hrefOf(to: string, pathname: string) {
	const href = to.startsWith('?') ? pathname + to : to
	return href.endsWith('?') ? href.slice(0, -1) : href
}

type NavLinkProps = Omit<LinkProps, 'className'> & {
	/** Current only on this very path, not also on the paths below it. */
	end?: boolean
	className?: string | ((state: { isActive: boolean }) => string)
}

/** A link marked `aria-current="page"` while its path (or, unless `end`, one below it) is shown. */
export function NavLink({ to, end = false, className, ...props }: NavLinkProps) {
	const { pathname } = useLocation()
	const isActive = isCurrentPath(pathname, to, end)
	return (
		<Link
			to={to}
			aria-current={isActive ? 'page' : undefined}
			className={typeof className === 'function' ? className({ isActive }) : className}
			{...props}
		/>
	)
}

/** React Router's NavLink rule: the same path blind to case, or (unless `end`) a path below it. */
export function isCurrentPath(pathname: string, to: string, end: boolean) {
	const here = pathname.toLowerCase()
	let target = to.split(/[?#]/, 1)[0]!.toLowerCase()
	if (target.length > 1 && target.endsWith('/')) target = target.slice(0, -1)
	return here === target || (!end && here.startsWith(target) && here.charAt(target.length) === '/')
}

/**
 * A plain click on a `data-link` anchor navigates in the app, as React Router's Link would: not a
 * click with a modifier key or another button, nor one on a link that opens elsewhere or
 * downloads, nor one a handler of the link's own prevented. A link to where the page already
 * is replaces the history entry rather than adding one.
 */
export function useLinkNavigation() {
	const navigate = useNavigate()
	useEffect(() => {
		const onClick = (event: MouseEvent) => {
			if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return
			const anchor = event.target instanceof Element ? event.target.closest('a[data-link]') : null
			if (!(anchor instanceof HTMLAnchorElement) || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return
			const url = new URL(anchor.href)
			if (url.origin !== window.location.origin) return
			event.preventDefault()
			const to = url.pathname + url.search + url.hash
			const here = window.location.pathname + window.location.search + window.location.hash
			void navigate(to, { replace: to === here, preventScrollReset: anchor.dataset.link === 'keep-scroll' })
		}
		document.addEventListener('click', onClick)
		return () => document.removeEventListener('click', onClick)
	}, [navigate])
}
