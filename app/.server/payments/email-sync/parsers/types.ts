import type { Notice } from '../notice.ts'
import type { PaymentMethod } from '#app/lib/schemas/transactions.ts'

/** A received payment read from a notice, before the import pipeline (normalise → dedupe → …). */
export type NoticePayment = {
	/** The day it was received, yyyy-mm-dd, in the organization's timezone. */
	date: string
	/** Dollars with 2 decimals, e.g. '1250.00'. */
	amount: string
	payer: string
	memo: string | null
	/** The notice's own id (transaction, confirmation or identifier number), or null. */
	externalId: string | null
	source: 'email'
	/** The built-in parsers' Zelle, Venmo, CashApp or PayPal; a custom rule's own (parsers/custom.ts). */
	method: PaymentMethod
	/** Who sent the notice: venmo, cashapp, paypal, chase, bofa, capitalone, td, wellsfargo (the Zelle banks whose template is unknown never give a payment). */
	issuer: string
	/** The message's Message-ID: two id-less notices alike in all else stay two payments. */
	noticeId: string | null
}

export type NoticeOutcome =
	| { kind: 'payment'; payment: NoticePayment }
	| { kind: 'ignored'; reason: 'outgoing' | 'request' | 'other' | 'spoofed' | 'unknown_sender' }
	| { kind: 'unreadable'; subject: string; sender: string }

/** What a parser reads out of a notice of its sender (the date and ids are added around it). */
export type ParsedFields = { amount: string; payer: string; memo: string | null; externalId: string | null }

export type ParserResult = ParsedFields | 'outgoing' | 'request' | 'other' | 'unreadable'

export type NoticeParser = {
	issuer: string
	method: NoticePayment['method']
	/** Sender domains (a subdomain matches too). */
	domains: string[]
	parse: (notice: Notice) => ParserResult
}
