import { index, route, type RouteConfig } from '@react-router/dev/routes'

// The route table of docs/product.md (Screens).
const legacy = ['dashboard', 'transactions', 'clients', 'categories', 'reports', 'module-marketplace', 'booking', 'settings']

export default [
	index('routes/landing.tsx'),
	route('auth', 'routes/auth/auth.tsx'),
	route('auth/forgot-password', 'routes/auth/forgot-password.tsx'),
	route('auth/reset-password', 'routes/auth/reset-password.tsx'),
	route('auth/google', 'routes/auth/google.ts'),
	route('auth/callback', 'routes/auth/callback.ts'),
	route('auth/sign-out', 'routes/auth/sign-out.ts'),
	route('onboarding', 'routes/onboarding.tsx'),
	route('preferences', 'routes/preferences.ts'),
	route('healthz', 'routes/healthz.ts'),

	route('app', 'routes/app/layout.tsx', [
		index('routes/app/index.ts'),
		route('dashboard', 'routes/app/dashboard.tsx'),
		route('transactions', 'routes/app/transactions.tsx'),
		route('clients', 'routes/app/clients.tsx'),
		route('clients/:clientId', 'routes/app/client-detail.tsx'),
		route('categories', 'routes/app/categories.tsx'),
		route('reports', 'routes/app/reports.tsx'),
		route('reports/export.csv', 'routes/app/reports-export.ts'),
		route('module-marketplace', 'routes/app/module-marketplace.tsx'),
		route('modules/:moduleId', 'routes/app/module-detail.tsx'),
		route('modules/:moduleId/settings.json', 'routes/app/module-settings-export.ts'),
		route('settings/modules/:moduleId', 'routes/app/module-detail.tsx', { id: 'settings-module-detail' }),
		route('plans', 'routes/app/plans.tsx'),
		route('gears', 'routes/app/gears.tsx'),
		route('booking', 'routes/app/booking/layout.tsx', [
			index('routes/app/booking/index.ts'),
			route('calendar', 'routes/app/booking/calendar.tsx'),
			route('services', 'routes/app/booking/services.tsx'),
			route('providers', 'routes/app/booking/providers.tsx'),
			route('analytics', 'routes/app/booking/analytics.tsx'),
			route('settings', 'routes/app/booking/settings.tsx'),
			route('events', 'routes/app/booking/events.ts'),
		]),
		route('settings', 'routes/app/settings.tsx'),
		route('*', 'routes/app/not-found.tsx'),
	]),

	route('book', 'routes/book/invalid.tsx'),
	route('book/:orgSlug', 'routes/book/layout.tsx', [
		index('routes/book/index.ts'),
		route('service', 'routes/book/service.tsx'),
		route('slot', 'routes/book/slot.tsx'),
		route('details', 'routes/book/details.tsx'),
		route('confirm', 'routes/book/confirm.tsx'),
		route('booked/:id', 'routes/book/booked.tsx'),
	]),
	route('book/:orgSlug/booked/:id/calendar.ics', 'routes/book/booked-ics.ts'),

	...legacy.map((path) => route(path, 'routes/legacy-redirect.ts', { id: `legacy-${path}` })),
	route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
