/**
 * What bench/invoices-list.ts calls of the app, in one module that it loads through Vite's module
 * runner (as bench/payments-app.ts): one module graph, so the database it opens is the one the
 * services use.
 */
export { asSystem, closeDatabase, openDatabase, sql } from '../app/.server/db/index.ts'
export { migrate } from '../app/.server/db/migrate.ts'
export { listInvoices } from '../app/.server/invoices/list.ts'
export { dashboardInvoiceTotals, listClientInvoices } from '../app/.server/invoices/overview.ts'
export { dueRecurringKeys } from '../app/.server/invoices/recurring.ts'
