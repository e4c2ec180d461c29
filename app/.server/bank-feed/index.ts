/** Bank Feed Reconciliation (docs/product.md, Bank feed; docs/decisions/049-bank-feed.md): what start-up registers. */
export { reconcileAfterImport } from './statements.ts'
export { registerBankFeedJob } from './discrepancy-job.ts'
