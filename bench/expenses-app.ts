/**
 * What bench/expenses.ts calls of the app, in one module that it loads through Vite's module
 * runner (as bench/invoices-list-app.ts): one module graph, so the database it opens is the one the
 * services use.
 */
export { asSystem, closeDatabase, openDatabase, sql } from '../app/.server/db/index.ts'
export { migrate } from '../app/.server/db/migrate.ts'
export { listExpenses } from '../app/.server/expenses/expenses.ts'
export { monthlyProfit } from '../app/.server/expenses/profit.ts'
