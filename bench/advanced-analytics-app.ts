/**
 * What bench/advanced-analytics.ts calls of the app, in one module that it loads through Vite's
 * module runner (as bench/payments-app.ts): one module graph, so the database it opens is the one
 * the services use.
 */
export { asSystem, closeDatabase, openDatabase, sql } from '../app/.server/db/index.ts'
export { migrate } from '../app/.server/db/migrate.ts'
export { getAnalytics } from '../app/.server/reports/analytics.ts'
export { getReport } from '../app/.server/payments/analytics.ts'
export { dateIn } from '../app/lib/dates.ts'
