import { expect, test } from './fixtures.ts'
import { cutAxisLabels, seedPayments, signUpFresh, useLanguage, type Payment } from './reports-data.ts'

// docs/decisions/022-formats-follow-the-language.md: amounts in US dollars written the
// language's way, dates in its order, percentages and counts by its rules; the CSV keeps ISO
// dates and dot decimals with translated headers and words.

const payments: Payment[] = [
	{ client: 0, amount: '1234.56', date: '2025-01-12', category: 'matched', method: 'Wire Transfer' },
	{ client: 1, amount: '100.00', date: '2025-02-03', category: 'pending', method: 'CashApp' },
]

// Intl puts a no-break space between "US$" or "%" and the number; innerText keeps it.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ')

const expected = {
	en: {
		total: '$1,334.56',
		matched: '50.0% of all transactions',
		latest: ['01/12/2025', '$1,234.56', 'Wire transfer'],
		caption: 'Showing 01/12/2025 to 02/03/2025',
		average: '$667.28',
		share: '92.5%',
		received: 'Total Received',
		revenue: 'Total Revenue',
		matchedTitle: 'Matched Transactions',
		averageTitle: 'Average Transaction',
		axisSign: '$',
	},
	es: {
		total: '1.334,56 US$',
		matched: '50,0 % de todas las transacciones',
		latest: ['12/01/2025', '1.234,56 US$', 'Transferencia bancaria'],
		caption: 'Mostrando del 12/01/2025 al 03/02/2025',
		average: '667,28 US$',
		share: '92,5 %',
		received: 'Total recibido',
		revenue: 'Ingresos totales',
		matchedTitle: 'Transacciones conciliadas',
		averageTitle: 'Transacción promedio',
		axisSign: ' US$',
	},
	'pt-BR': {
		total: 'US$ 1.334,56',
		matched: '50,0% de todas as transações',
		latest: ['12/01/2025', 'US$ 1.234,56', 'Transferência bancária'],
		caption: 'Exibindo de 12/01/2025 a 03/02/2025',
		average: 'US$ 667,28',
		share: '92,5%',
		received: 'Total recebido',
		revenue: 'Receita total',
		matchedTitle: 'Transações conciliadas',
		averageTitle: 'Transação média',
		axisSign: 'US$ ',
	},
} as const

for (const lng of ['en', 'es', 'pt-BR'] as const) {
	test(`${lng}: the dashboard and the reports write amounts, dates and percentages one way @nojs`, async ({
		page,
		request,
		javaScriptEnabled,
	}) => {
		const errors: string[] = []
		page.on('console', (m) => {
			if (m.type() === 'error') errors.push(m.text())
		})
		const account = await signUpFresh(page, request, `Formats ${lng}`)
		await seedPayments(account.email, ['Ana', 'Bruno'], payments)
		await useLanguage(page, lng)
		const want = expected[lng]

		// Wide enough for the latest payments' method column beside the chart.
		await page.setViewportSize({ width: 1600, height: 900 })
		await page.goto('/app/dashboard')
		await expect(page.locator('html')).toHaveAttribute('lang', lng)
		const stat = (title: string) => page.getByRole('group', { name: title })
		expect(plain(await stat(want.received).getByTestId('stat-value').innerText())).toBe(want.total)
		expect(plain(await stat(want.matchedTitle).innerText())).toContain(want.matched)
		const firstRow = page.getByRole('row').filter({ hasText: 'Ana' }).first()
		const rowText = plain(await firstRow.innerText())
		for (const part of want.latest) expect(rowText).toContain(part)

		await page.goto('/app/reports?range=custom&from=2025-01-12&to=2025-02-03')
		expect(plain(await page.getByTestId('range-caption').innerText())).toBe(want.caption)
		expect(plain(await stat(want.revenue).getByTestId('stat-value').innerText())).toBe(want.total)
		expect(plain(await stat(want.averageTitle).getByTestId('stat-value').innerText())).toBe(want.average)
		expect(plain(await page.locator('main').innerText())).toContain(want.share)
		if (javaScriptEnabled) {
			// The trend chart's amount axis writes dollars the same way.
			const ticks = page.locator('.recharts-cartesian-axis-tick-value')
			await expect(ticks.first()).toBeVisible()
			expect(plain((await ticks.allTextContents()).join(' | '))).toContain(want.axisSign)
			expect(await cutAxisLabels(page)).toEqual([])
		}

		// The server's text and the browser's agree: no hydration warning.
		expect(errors.filter((e) => /hydrat|did not match|error #4(18|19|23|25)/i.test(e))).toEqual([])
	})
}

test('es: the CSV has translated headers and words, ISO dates and dot decimals @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Formats CSV')
	await seedPayments(account.email, ['Ana', 'Bruno'], payments)
	await useLanguage(page, 'es')
	const csv = await (await page.request.get('/app/reports/export.csv?range=custom&from=2025-01-12&to=2025-02-03')).text()
	const lines = csv.slice(1).split('\r\n')
	expect(lines.slice(0, 3)).toEqual([
		'Fecha,Cliente,ID externo,Monto,Categoría,Método,Descripción',
		'2025-01-12,Ana,,1234.56,Conciliada,Transferencia bancaria,',
		'2025-02-03,Bruno,,100.00,Pendiente,Cash App,',
	])
	expect(lines).toContain('Período,2025-01-12,2025-02-03')
	expect(lines).toContain('Ingresos totales,1334.56')
	expect(lines).toContain('Conciliada,1,1234.56,92.5%')
})

test('es and pt-BR: plan prices show in US dollars the same way as the app’s amounts @nojs', async ({ page }) => {
	for (const [lng, price] of [
		['en', '$29'],
		['es', '29 US$'],
		['pt-BR', 'US$ 29'],
	] as const) {
		await useLanguage(page, lng)
		await page.goto('/')
		expect(plain(await page.locator('body').innerText()), lng).toContain(price)
	}
})

test('es and pt-BR: the marketplace names and describes modules in the language, and finds them by it @nojs', async ({ page, request }) => {
	await signUpFresh(page, request, 'Catalogue Reader')
	// The second search leaves out the accents and changes the case: the search is blind to both.
	for (const [lng, name, short, search, plainSearch] of [
		[
			'es',
			'Reserva de citas',
			'Una página pública de reservas con servicios, profesionales y horario comercial.',
			'reserva',
			'PAGINA publica de reservas',
		],
		[
			'pt-BR',
			'Agendamento de compromissos',
			'Uma página pública de agendamento com serviços, profissionais e horário comercial.',
			'agendamento',
			'pagina PUBLICA de agendamento',
		],
	] as const) {
		await useLanguage(page, lng)
		await page.goto('/app/module-marketplace')
		await expect(page.getByRole('heading', { name, exact: true })).toBeVisible()
		await expect(page.getByText(short)).toBeVisible()
		await expect(page.getByText('Appointment Booking')).toHaveCount(0)
		for (const q of [search, plainSearch]) {
			await page.goto(`/app/module-marketplace?q=${encodeURIComponent(q)}`)
			await expect(page.getByRole('heading', { name, exact: true }), q).toBeVisible()
		}
	}
})
