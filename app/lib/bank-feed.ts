/**
 * Bank Feed Reconciliation, what every layer shares (docs/decisions/049-bank-feed.md): the bounds
 * of an OFX/QFX file, the days after which an app payment not seen deposited is a discrepancy, and
 * how a bank statement line is recognised: a payment app's cash-out (Venmo, Cash App, PayPal), a
 * transfer between the organization's own accounts, another deposit, or money out.
 */

/** The largest OFX/QFX file the reconciliation screen accepts (checked in the browser and by the server). */
export const MAX_OFX_BYTES = 5 * 1024 * 1024
/** The most transactions one file may hold (also bounded in SQL). */
export const MAX_OFX_TRANSACTIONS = 20_000
/** An app payment not carried by any deposit this many days before the latest statement's end is listed and mailed. */
export const PENDING_DAYS = 10

export const BANK_LINE_KINDS = ['cashout', 'ownTransfer', 'deposit', 'debit'] as const
export type BankLineKind = (typeof BANK_LINE_KINDS)[number]
/** The rails whose money reaches the bank as a cash-out of the app's balance. */
export type CashoutRail = 'Venmo' | 'CashApp' | 'PayPal'

/**
 * The bank's words for a payment app's cash-out, tried on the line's name and memo together:
 * "VENMO CASHOUT", "VENMO *STANDARD TRANSFER", "CASH APP*CASH OUT", "SQUARE INC CASH APP",
 * "PAYPAL TRANSFER", "PAYPAL INST XFER". A Zelle line naming a person called Venmo is not one.
 */
const RAILS: Array<{ rail: CashoutRail; pattern: RegExp }> = [
	{ rail: 'Venmo', pattern: /\bvenmo\b/i },
	{ rail: 'CashApp', pattern: /\bcash\s?app\b|\bsq(?:uare)?\s*(?:inc)?\s*\*?\s*cash\b/i },
	{ rail: 'PayPal', pattern: /\bpaypal\b/i },
]

/** Own-account transfers as banks write them: "ONLINE TRANSFER FROM SAV ...1234", "Transfer from Checking x5678". */
const OWN_TRANSFER =
	/\b(?:online|mobile|internal|book|funds)?\s*(?:transfer|xfer|trnsfr)\s+(?:from|to)\b.*\b(?:chk|checking|sav|savings|share|acct|account|money market|mma|x\d{2,}|\.{2,}\d{2,}|\*{2,}\d{2,})/i

/**
 * What a statement line is (see the top of this file). `trnType` is the OFX `TRNTYPE`: `XFER`
 * is a transfer between the bank's accounts, whatever its name.
 */
export function classifyBankLine(line: { amount: string; name: string | null; memo: string | null; trnType: string }): {
	kind: BankLineKind
	rail: CashoutRail | null
} {
	const text = `${line.name ?? ''} ${line.memo ?? ''}`
	const credit = !line.amount.startsWith('-')
	if (credit && !/\bzelle\b/i.test(text)) {
		for (const { rail, pattern } of RAILS) if (pattern.test(text)) return { kind: 'cashout', rail }
	}
	if (line.trnType === 'XFER' || OWN_TRANSFER.test(text)) return { kind: 'ownTransfer', rail: null }
	return { kind: credit ? 'deposit' : 'debit', rail: null }
}
