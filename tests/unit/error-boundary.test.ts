import { createInstance } from 'i18next'
import { createElement as h } from 'react'
import { renderToString } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { createMemoryRouter, Outlet, RouterProvider, UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from 'react-router'
import { describe, expect, test } from 'vitest'
import en from '../../public/locales/en/common.json'
import es from '../../public/locales/es/common.json'
import { ErrorBoundary } from '#app/components/error-boundary.tsx'

/**
 * Renders /app/screen as the server would after the screen's loader threw `error`: a layout
 * standing in for the shell (a nav) around the screen's boundary.
 */
async function renderScreenError(language: 'en' | 'es', error: unknown) {
	const i18n = createInstance()
	await i18n.use(initReactI18next).init({ lng: language, resources: { en: { common: en }, es: { common: es } }, defaultNS: 'common' })
	const router = createMemoryRouter(
		[
			{
				id: 'layout',
				path: '/app',
				element: h('div', null, h('nav', null, 'shell'), h(Outlet)),
				children: [{ id: 'screen', path: 'screen', element: h('p', null, 'screen'), ErrorBoundary }],
			},
		],
		{ initialEntries: ['/app/screen'], hydrationData: { loaderData: {}, errors: { screen: error } } },
	)
	return renderToString(h(I18nextProvider, { i18n }, h(RouterProvider, { router })))
}

describe('the error boundary of a screen', () => {
	test('a 403 from requireOwner stays inside the shell and says why, in the user language', async () => {
		const html = await renderScreenError('es', new ErrorResponseImpl(403, 'Forbidden', { message: 'ownerOnly' }))
		expect(html).toContain('<nav>shell</nav>')
		expect(html).toContain('Acceso denegado')
		expect(html).toContain('Solo el propietario de la organización puede hacer esto.')
		expect(html).toContain('href="/app/dashboard"')
		expect(html).not.toContain('<p>screen</p>')
	})

	test('a 404 without a message of its own says the thing was not found', async () => {
		const html = await renderScreenError('en', new ErrorResponseImpl(404, 'Not Found', null))
		expect(html).toContain('Not found')
		expect(html).toContain('We could not find what you were looking for.')
	})

	test('an unexpected error says something went wrong and offers to try again', async () => {
		const original = console.error
		console.error = () => {}
		try {
			const html = await renderScreenError('en', new Error('database down'))
			expect(html).toContain('500')
			expect(html).toContain('Something went wrong. Please try again.')
			expect(html).toContain('Try again')
			expect(html).not.toContain('database down')
		} finally {
			console.error = original
		}
	})
})
