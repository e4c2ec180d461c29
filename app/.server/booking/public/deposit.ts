/**
 * What the public pages read of deposits (docs/product.md, Deposits and prepayment), as anon
 * through the public functions of supabase/migrations/20261205020000_deposits_visitor_side.sql:
 * a booking's deposit by its manage token (the booked page, the booking mail), and the deposit a
 * service announces before booking (the confirm step).
 */
import { HANDLE_KINDS } from '#app/lib/schemas/payment-handles.ts'
import { asAnon, sql } from '../../db/index.ts'
import type { VisitorDeposit } from './mail.ts'

type DepositRow = {
	status: VisitorDeposit['status']
	amount_due: string
	memo_code: string
	due_at: Date | string | null
	paid_at: Date | string | null
	guest_timezone: string | null
	zelle: string | null
	venmo: string | null
	cashapp: string | null
	paypal: string | null
}

const iso = (v: Date | string | null) => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString())

/** The deposit of the booking a manage token names (its latest), with the organization's handles; null when it asks none. */
export async function getBookingDeposit(token: string): Promise<VisitorDeposit | null> {
	// The function checks the token's form too; anything but 64 characters is no token.
	if (token.length !== 64) return null
	const row = await asAnon((trx) =>
		sql<DepositRow>`select * from public.get_public_booking_deposit(${token})`.execute(trx).then((r) => r.rows[0]),
	)
	if (!row) return null
	return {
		status: row.status,
		amount: String(row.amount_due),
		code: row.memo_code,
		dueAt: iso(row.due_at),
		paidAt: iso(row.paid_at),
		guestTimezone: row.guest_timezone,
		handles: Object.fromEntries(HANDLE_KINDS.map((k) => [k, row[k]])) as VisitorDeposit['handles'],
	}
}

/**
 * What the confirm step tells before booking: the deposit the service asks of everyone (a fixed
 * amount, capped at the price, or the price), else null. A deposit asked only after no-shows is
 * not announced: whether this visitor has any is never told to a page anyone can open.
 */
export async function getDepositTerms(serviceId: string): Promise<{ kind: 'fixed' | 'full'; amount: string } | null> {
	const row = await asAnon((trx) =>
		sql<{ deposit_kind: string; deposit_amount: string | null; deposit_after_no_shows: number | null; price: string }>`
			select * from public.get_public_deposit_terms(${serviceId})`
			.execute(trx)
			.then((r) => r.rows[0]),
	)
	if (!row || row.deposit_after_no_shows !== null || Number(row.price) <= 0) return null
	if (row.deposit_kind === 'full') return { kind: 'full', amount: Number(row.price).toFixed(2) }
	if (row.deposit_kind === 'fixed' && row.deposit_amount !== null)
		return { kind: 'fixed', amount: Math.min(Number(row.deposit_amount), Number(row.price)).toFixed(2) }
	return null
}
