import { secureCookies } from '../security.ts'

/**
 * docs/product.md, App shell and sidebar: the sidebar's state in a cookie named sidebar:state for 7 days, "true" when
 * expanded. A plain cookie (not React Router's encoded one) because the browser writes it
 * too when JavaScript toggles the sidebar.
 */
export const SIDEBAR_COOKIE = 'sidebar:state'
export const SIDEBAR_MAX_AGE = 60 * 60 * 24 * 7

export function serializeSidebarCookie(expanded: boolean) {
	return `${SIDEBAR_COOKIE}=${expanded}; Path=/; Max-Age=${SIDEBAR_MAX_AGE}; SameSite=Lax${secureCookies() ? '; Secure' : ''}`
}

export function readSidebarExpanded(request: Request) {
	const match = /(?:^|;\s*)sidebar:state=([^;]*)/.exec(request.headers.get('cookie') ?? '')
	return match?.[1] !== 'false'
}
