import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { newAccount, signUpByRequest, test, type Account } from './fixtures.ts'

export type Payment = {
	client: number | null
	amount: string
	date: string
	category: 'matched' | 'pending' | 'unmatched' | 'review'
	method?: 'Zelle' | 'Venmo' | 'CashApp' | 'PayPal' | 'Wire Transfer' | 'Other'
	externalId?: string
	description?: string
}

/** A new user of its own organization, signed in on `page` (and on `request`). */
export async function signUpFresh(page: Page, request: APIRequestContext, name = 'Report User'): Promise<Account> {
	const account = newAccount(name)
	await signUpByRequest(request, account)
	await page.context().addCookies((await request.storageState()).cookies)
	return account
}

/** Reads the page in a language (the lng cookie the language switcher sets). */
export async function useLanguage(page: Page, lng: 'en' | 'es' | 'pt-BR') {
	await page
		.context()
		.addCookies([{ name: 'lng', value: Buffer.from(JSON.stringify(lng)).toString('base64'), url: test.info().project.use.baseURL! }])
}

/** Inserts clients and transactions straight into the organization of the account's owner. */
export async function seedPayments(email: string, clientNames: string[], payments: Payment[]) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string; user_id: string }>(
			`select m.organization_id, u.id as user_id from auth.users u
			 join public.organization_members m on m.user_id = u.id where u.email = $1`,
			[email],
		)
		const { organization_id: orgId, user_id: userId } = rows[0]!
		const clientIds: string[] = []
		for (const name of clientNames) {
			const inserted = await db.query<{ id: string }>(
				'insert into public.clients (organization_id, user_id, name) values ($1, $2, $3) returning id',
				[orgId, userId, name],
			)
			clientIds.push(inserted.rows[0]!.id)
		}
		if (payments.length) {
			await db.query(
				`insert into public.transactions (organization_id, user_id, client_id, amount, date_received, category, payment_method, external_id, description)
				 select $1, $2, x.client_id, x.amount, x.date_received, x.category::public.transaction_category,
					x.payment_method::public.payment_method, x.external_id, x.description
				 from unnest($3::uuid[], $4::numeric[], $5::date[], $6::text[], $7::text[], $8::text[], $9::text[])
					as x(client_id, amount, date_received, category, payment_method, external_id, description)`,
				[
					orgId,
					userId,
					payments.map((p) => (p.client === null ? null : clientIds[p.client])),
					payments.map((p) => p.amount),
					payments.map((p) => p.date),
					payments.map((p) => p.category),
					payments.map((p) => p.method ?? 'Zelle'),
					payments.map((p) => p.externalId ?? null),
					payments.map((p) => p.description ?? null),
				],
			)
		}
		return { orgId, clientIds }
	})
}

/** Today's date in UTC (a new organization's timezone), and the first day of a month before it. */
export function utcToday() {
	return new Date().toISOString().slice(0, 10)
}

export function monthsAgo(n: number, day = 1) {
	const d = new Date()
	const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1))
	return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), day)).toISOString().slice(0, 10)
}

/** The axis labels of the page's charts that stick out of their chart (a cut "6 mil US$" reads "mil US$"). */
export function cutAxisLabels(page: Page) {
	return page.locator('svg.recharts-surface').evaluateAll((charts) =>
		charts.flatMap((chart) => {
			const box = chart.getBoundingClientRect()
			return [...chart.querySelectorAll('.recharts-cartesian-axis-tick-value')]
				.filter((label) => label.getBoundingClientRect().left < box.left - 0.5 || label.getBoundingClientRect().right > box.right + 0.5)
				.map((label) => label.textContent)
		}),
	)
}
