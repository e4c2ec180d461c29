/**
 * What bench/reminders.ts calls of the app, in one module that it loads through Vite's module
 * runner (as bench/payments-app.ts): one module graph, so the database it opens is the one the
 * job uses, and `import.meta.glob` (app/.server/i18n.ts, which the reminder mail reaches) works.
 */
export { dueReminders, reminderMail, remindersJob } from '../app/.server/booking/reminders.ts'
export { asSystem, closeDatabase, openDatabase, sql } from '../app/.server/db/index.ts'
export { migrate } from '../app/.server/db/migrate.ts'
export { sendMail } from '../app/.server/mail/index.ts'
export { runDueJobs } from '../app/.server/scheduler.ts'
