import { z } from 'zod'

/**
 * The organization's payment handles (docs/product.md, Deposits and prepayment; Settings ›
 * Organization › Getting paid): where visitors send a deposit. Each is optional, written as
 * people copy them from their apps, and normalised to the form the table's checks accept
 * (supabase/migrations/20261205000000_booked_and_paid.sql, payment_handles): Zelle an e-mail
 * address or a US phone number (10 digits), Venmo a username without @, Cash App a $cashtag
 * without $, PayPal a PayPal.me name. Messages are keys under settings:errors.
 */

export const HANDLE_KINDS = ['zelle', 'venmo', 'cashapp', 'paypal'] as const
export type HandleKind = (typeof HANDLE_KINDS)[number]
export type PaymentHandles = Record<HandleKind, string | null>

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/
const VENMO = /^[A-Za-z0-9_-]{5,30}$/
const CASHTAG = /^[A-Za-z][A-Za-z0-9_]{0,19}$/
const PAYPAL = /^[A-Za-z0-9]{1,20}$/

/** A link's scheme and host (any case, with or without www.) before a handle, when one was pasted. */
const prefix = (hosts: string) => new RegExp(`^(?:https?://)?(?:www\\.)?(?:${hosts})/+`, 'i')

/**
 * Zelle: an e-mail address (kept as typed, trimmed) or a US phone number written any way
 * ("(555) 123-4567", "+1 555 123 4567"): its ten digits. Null when it is neither.
 */
export function normalizeZelle(value: string): string | null {
	const text = value.trim()
	if (text.includes('@')) return text.length <= 254 && EMAIL.test(text) ? text : null
	if (!/^[0-9+()\-. ]+$/.test(text)) return null
	const digits = text.replace(/\D/g, '')
	const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits
	return /^[2-9][0-9]{9}$/.test(national) ? national : null
}

/** Venmo: "@name", "venmo.com/name" or "venmo.com/u/name" is "name"; null when Venmo would not take it. */
export function normalizeVenmo(value: string): string | null {
	const text = value.trim().replace(prefix('venmo\\.com'), '').replace(/^u\//i, '').replace(/^@/, '').replace(/\/+$/, '')
	return VENMO.test(text) ? text : null
}

/** Cash App: "$name" or "cash.app/$name" is "name"; null when it is no cashtag. */
export function normalizeCashtag(value: string): string | null {
	const text = value.trim().replace(prefix('cash\\.app|cash\\.me'), '').replace(/^\$/, '').replace(/\/+$/, '')
	return CASHTAG.test(text) ? text : null
}

/** PayPal: "paypal.me/name", "https://www.paypal.com/paypalme/name" or "@name" is "name"; null otherwise. */
export function normalizePaypal(value: string): string | null {
	const text = value.trim().replace(prefix('paypal\\.me|paypal\\.com/paypalme'), '').replace(/^@/, '').replace(/\/+$/, '')
	return PAYPAL.test(text) ? text : null
}

const NORMALIZE: Record<HandleKind, (value: string) => string | null> = {
	zelle: normalizeZelle,
	venmo: normalizeVenmo,
	cashapp: normalizeCashtag,
	paypal: normalizePaypal,
}

const ERROR: Record<HandleKind, string> = {
	zelle: 'zelleInvalid',
	venmo: 'venmoInvalid',
	cashapp: 'cashappInvalid',
	paypal: 'paypalInvalid',
}

/** One optional handle: empty is none; anything else must normalise, or its field says why. */
function handle(kind: HandleKind) {
	return z
		.string()
		.max(300, ERROR[kind])
		.optional()
		.transform((value, ctx) => {
			if (!value?.trim()) return null
			const normalized = NORMALIZE[kind](value)
			if (normalized === null) ctx.addIssue({ code: 'custom', message: ERROR[kind] })
			return normalized
		})
}

/** The "Getting paid" form. */
export const paymentHandlesSchema = z.object({
	zelle: handle('zelle'),
	venmo: handle('venmo'),
	cashapp: handle('cashapp'),
	paypal: handle('paypal'),
})

/** Whether any handle is set. */
export function hasHandle(handles: PaymentHandles | null | undefined): boolean {
	return Boolean(handles && HANDLE_KINDS.some((kind) => handles[kind]))
}

/** A Zelle phone number as people read it: (555) 123-4567; an e-mail address as it is. */
export function zelleShown(zelle: string) {
	return /^[0-9]{10}$/.test(zelle) ? `(${zelle.slice(0, 3)}) ${zelle.slice(3, 6)}-${zelle.slice(6)}` : zelle
}
