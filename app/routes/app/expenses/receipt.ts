import { expensesMember } from '#app/.server/expenses/access.ts'
import { getExpense } from '#app/.server/expenses/expenses.ts'
import { getReceipt } from '#app/.server/expenses/receipts.ts'
import type { Route } from './+types/receipt'

const notFound = () =>
	new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' } })

/**
 * An expense's receipt (docs/security.md, Receipts), to members of its organization only: the
 * expense is read as the member (row-level security), so another organization's expense id is a
 * 404 (so is any receipt while the module is not active), and the file comes from the private bucket, never from the public /storage route. It is
 * served with the type it was stored as (re-encoded on upload), `nosniff`, a sandboxing CSP, no
 * shared caching, and as a download name that says what it is.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
	const { user, organization, active } = await expensesMember(context)
	if (!active) return notFound()
	const expense = await getExpense(user.userId, organization.id, params.expenseId)
	if (!expense?.receiptKey || !expense.receiptType) return notFound()
	const file = await getReceipt(expense.receiptKey)
	if (!file) return notFound()
	const ext =
		expense.receiptType === 'application/pdf'
			? 'pdf'
			: expense.receiptType.split('/')[1] === 'jpeg'
				? 'jpg'
				: expense.receiptType.split('/')[1]
	return new Response(new Uint8Array(file.bytes), {
		headers: {
			'content-type': expense.receiptType,
			'content-length': String(file.bytes.byteLength),
			'content-disposition': `inline; filename="receipt-${expense.spentOn}.${ext}"`,
			'x-content-type-options': 'nosniff',
			'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
			'cache-control': 'private, no-store',
		},
	})
}
