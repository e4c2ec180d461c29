/**
 * Report Export (app/.server/reports/overview-document.ts, app/.server/reports/pdf.ts): the
 * Reports overview's PDF says the page's figures — totals, categories, months — in the reader's
 * language and number formats, and it is offered only to an organization with the Report Export
 * upgrade (the page's button leads to the marketplace otherwise). On PGlite and on the PostgreSQL
 * server.
 */
import { describe, expect, test } from 'vitest'
import { asSystem } from '#app/.server/db/index.ts'
import { getReport, rangeSearchParams } from '#app/.server/payments/analytics.ts'
import { EXPORT_UPGRADE_ID, overviewDocument, ownsReportUpgrade, reportPdfLink } from '#app/.server/reports/overview-document.ts'
import { renderReportPdf } from '#app/.server/reports/pdf.ts'
import { addMonths, monthStart } from '#app/lib/dates.ts'
import { formatMoney } from '#app/lib/format.ts'
import { createUser } from './fixtures.ts'
import { readPdf } from '../support/pdf-text.ts'

process.env.SESSION_SECRET ??= 'test-session-secret-of-at-least-32-characters'

const REPORTS = 'b0000000-0000-4000-8000-000000000004'

describe('the overview PDF', () => {
	test('carries the page’s totals, categories and twelve months, in Portuguese', async () => {
		const owner = await createUser('Dona Conceição')
		const today = new Date().toISOString().slice(0, 10)
		await asSystem(async (trx) => {
			await trx.updateTable('organizations').set({ name: 'Estúdio Ação & Canção' }).where('id', '=', owner.orgId).execute()
			const client = await trx
				.insertInto('clients')
				.values({ organization_id: owner.orgId, name: 'João Araújo', status: 'active' })
				.returning('id')
				.executeTakeFirstOrThrow()
			// Two payments a month for the last twelve months, on the 2nd and the 3rd (never after today).
			const first = monthStart(addMonths(today, -11))
			const rows = Array.from({ length: 12 }, (_, i) => addMonths(first, i)).flatMap((month, i) => [
				{ organization_id: owner.orgId, client_id: client.id, amount: 1000 + i, date_received: month },
				{ organization_id: owner.orgId, amount: 0.5, date_received: month },
			])
			await trx.insertInto('transactions').values(rows).execute()
		})
		const report = await getReport(owner.userId, owner.orgId, new URLSearchParams({ range: 'last-12-months' }))
		if (!report.ok) throw new Error(report.error)
		expect(report.totals.count).toBe(24)
		const bytes = await renderReportPdf(overviewDocument(report, 'Estúdio Ação & Canção', 'pt-BR', report.today))
		const { text } = await readPdf(bytes)
		const total = formatMoney(report.totals.amount, 'pt-BR').replace(/\u00a0|\u202f/g, ' ')
		expect(total).toBe('US$ 12.072,00')
		for (const expected of ['Relatório', 'Estúdio Ação & Canção', 'Resumo', 'Receita total', total, 'Tendências mensais', 'Página 1 de'])
			expect(text).toContain(expected)
		// The total appears in the stats and in both tables' totals rows (and in a category holding every payment).
		expect(text.split(total).length - 1).toBeGreaterThanOrEqual(3)
		for (const month of report.months) expect(text).toContain(formatMoney(month.amount, 'pt-BR').replace(/\u00a0|\u202f/g, ' '))
		expect(text).not.toMatch(/Total Revenue|Page 1/)
	})

	test('is offered only with the Report Export upgrade', async () => {
		const owner = await createUser('Export Owner')
		const params = rangeSearchParams({ preset: 'custom', from: '2030-01-01', to: '2030-12-31' })
		expect(await ownsReportUpgrade(owner.userId, owner.orgId, EXPORT_UPGRADE_ID)).toBe(false)
		expect(await reportPdfLink(owner.userId, owner.orgId, params)).toEqual({ allowed: false, href: `/app/modules/${REPORTS}` })
		await asSystem(async (trx) => {
			let module = await trx
				.selectFrom('organization_modules')
				.select('id')
				.where('organization_id', '=', owner.orgId)
				.where('module_id', '=', REPORTS)
				.executeTakeFirst()
			module ??= await trx
				.insertInto('organization_modules')
				.values({ organization_id: owner.orgId, module_id: REPORTS })
				.returning('id')
				.executeTakeFirstOrThrow()
			await trx
				.insertInto('organization_module_upgrades')
				.values({ organization_id: owner.orgId, organization_module_id: module.id, upgrade_id: EXPORT_UPGRADE_ID })
				.execute()
		})
		expect(await reportPdfLink(owner.userId, owner.orgId, params)).toEqual({
			allowed: true,
			href: '/app/reports/report.pdf?range=custom&from=2030-01-01&to=2030-12-31',
		})
		// Another organization's member does not see it as theirs.
		const other = await createUser('Other Owner')
		expect(await ownsReportUpgrade(other.userId, owner.orgId, EXPORT_UPGRADE_ID)).toBe(false)
	})
})
