/**
 * What bench/payments.ts calls of the app, in one module so that bench/payments.ts loads it
 * through Vite's module runner: one module graph, so the database it opens is the one the
 * services use, and `import.meta.glob` (app/.server/i18n.ts, which transactions.ts reaches
 * through the table saver) works as in the server.
 */
export { exportTransactions, getCategorySummaries, getDashboard, getReport, presetRange } from '../app/.server/payments/analytics.ts'
export { dateIn } from '../app/lib/dates.ts'
export { asSystem, closeDatabase, openDatabase, sql } from '../app/.server/db/index.ts'
export { migrate } from '../app/.server/db/migrate.ts'
export { listTransactions } from '../app/.server/payments/transactions.ts'
