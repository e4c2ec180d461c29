/**
 * CRM Enterprise's duplicates and merges (docs/product.md, Clients › Duplicates and merges;
 * docs/decisions/054-client-merge-undo.md). Every merge (public.merge_clients, any plan) is
 * recorded in public.client_merges; with CRM Enterprise a member finds possible duplicates, merges
 * them, says a pair is not one, and undoes a merge within MERGE_UNDO_DAYS
 * (public.undo_client_merge). A daily job prunes the records older than that.
 */
import { MODULES } from '#app/lib/modules.ts'
import { asSystem, asUser, dbErrorCode, sql } from '../db/index.ts'
import type { ScheduledJob } from '../scheduler.ts'

/** The upgrade that opens the duplicates screen and the undo (app/lib/modules.ts). */
export const CRM_ENTERPRISE_UPGRADE_ID = MODULES.crm.upgrades.enterprise.id

/** How long a merge can be undone, and its record kept. */
export const MERGE_UNDO_DAYS = 30

/** How many pairs the duplicates screen lists at once, and how many recent merges. */
export const DUPLICATE_PAIRS = 50
export const RECENT_MERGES = 30

/** Whether the organization owns CRM Enterprise. */
export async function ownsCrmEnterprise(userId: string, organizationId: string) {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_module_upgrades')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('upgrade_id', '=', CRM_ENTERPRISE_UPGRADE_ID)
			.executeTakeFirst(),
	)
	return row !== undefined
}

export type DuplicateReason = 'email' | 'phone' | 'name'
export type PairClient = { id: string; name: string; email: string | null; phone: string | null; payments: number }
export type DuplicatePair = { a: PairClient; b: PairClient; reasons: DuplicateReason[] }

/**
 * Pairs of the organization's clients that may be one person: the same e-mail (any case), the
 * same phone (its last 10 digits, when it has at least 7), or the same name (as payers compare:
 * case, accents and spaces ignored); pairs said not to be duplicates are left out. In the order of
 * the first client's name, at most DUPLICATE_PAIRS.
 */
export async function listDuplicatePairs(userId: string, organizationId: string): Promise<DuplicatePair[]> {
	const { rows } = await asUser(userId, (trx) =>
		sql<{
			a: string
			b: string
			reasons: DuplicateReason[]
			aName: string
			aEmail: string | null
			aPhone: string | null
			aPayments: number
			bName: string
			bEmail: string | null
			bPhone: string | null
			bPayments: number
		}>`
		with c as (
			select k.id, k.name,
				nullif(lower(btrim(k.email)), '') as e,
				case when char_length(regexp_replace(coalesce(k.phone, ''), '[^0-9]', '', 'g')) >= 7
					then right(regexp_replace(k.phone, '[^0-9]', '', 'g'), 10) end as p,
				nullif(public.payer_key(k.name), '') as n
			from public.clients k where k.organization_id = ${organizationId}
		),
		pairs as (
			select x.id as a, y.id as b, 'email' as reason from c x join c y on y.e = x.e and x.id < y.id
			union all
			select x.id, y.id, 'phone' from c x join c y on y.p = x.p and x.id < y.id
			union all
			select x.id, y.id, 'name' from c x join c y on y.n = x.n and x.id < y.id
		),
		found as (
			select p.a, p.b, array_agg(distinct p.reason order by p.reason) as reasons from pairs p
			where not exists (select 1 from public.client_duplicate_dismissals d
				where d.organization_id = ${organizationId} and d.client_a = p.a and d.client_b = p.b)
			group by p.a, p.b
		)
		select f.a, f.b, f.reasons,
			ca.name as "aName", ca.email as "aEmail", ca.phone as "aPhone",
			(select count(*) from public.transactions t where t.organization_id = ${organizationId} and t.client_id = f.a)::int as "aPayments",
			cb.name as "bName", cb.email as "bEmail", cb.phone as "bPhone",
			(select count(*) from public.transactions t where t.organization_id = ${organizationId} and t.client_id = f.b)::int as "bPayments"
		from found f
		join public.clients ca on ca.id = f.a
		join public.clients cb on cb.id = f.b
		order by public.name_sort_key(ca.name), ca.id, public.name_sort_key(cb.name), cb.id
		limit ${DUPLICATE_PAIRS}`.execute(trx),
	)
	return rows.map((r) => ({
		a: { id: r.a, name: r.aName, email: r.aEmail, phone: r.aPhone, payments: Number(r.aPayments) },
		b: { id: r.b, name: r.bName, email: r.bEmail, phone: r.bPhone, payments: Number(r.bPayments) },
		reasons: r.reasons,
	}))
}

export type RecentMerge = {
	id: string
	keptId: string
	/** The kept client's name now; null when it was deleted (or merged away) since. */
	keptName: string | null
	mergedName: string
	mergedEmail: string | null
	mergedAt: string
	/** The last instant the merge can be undone. */
	undoUntil: string
	undoneAt: string | null
	mergedClientId: string
}

/** The organization's merges of the last MERGE_UNDO_DAYS days, newest first. */
export async function listRecentMerges(userId: string, organizationId: string): Promise<RecentMerge[]> {
	const { rows } = await asUser(userId, (trx) =>
		sql<RecentMerge>`
		select m.id, m.kept_client_id as "keptId", k.name as "keptName",
			coalesce(m.merged_client ->> 'name', '') as "mergedName", m.merged_client ->> 'email' as "mergedEmail",
			m.merged_at::text as "mergedAt", (m.merged_at + make_interval(days => ${MERGE_UNDO_DAYS}))::text as "undoUntil",
			m.undone_at::text as "undoneAt", m.merged_client_id as "mergedClientId"
		from public.client_merges m
		left join public.clients k on k.id = m.kept_client_id and k.organization_id = m.organization_id
		where m.organization_id = ${organizationId} and m.merged_at > now() - make_interval(days => ${MERGE_UNDO_DAYS})
		order by m.merged_at desc, m.id
		limit ${RECENT_MERGES}`.execute(trx),
	)
	return rows
}

/** Why an undo was refused (translated as clients:duplicates.refusals.*). */
export const UNDO_REFUSALS = [
	'not_found',
	'upgrade_inactive',
	'already_undone',
	'undo_expired',
	'kept_client_gone',
	'merged_client_exists',
] as const
export type UndoRefusal = (typeof UNDO_REFUSALS)[number]

/** Undoes a merge of the organization (public.undo_client_merge): the merged client's id, or why not. */
export async function undoClientMerge(
	userId: string,
	organizationId: string,
	mergeId: string,
): Promise<{ ok: true; clientId: string } | { ok: false; code: UndoRefusal }> {
	try {
		return await asUser(userId, async (trx) => {
			const own = await trx
				.selectFrom('client_merges')
				.select('id')
				.where('organization_id', '=', organizationId)
				.where('id', '=', mergeId)
				.executeTakeFirst()
			if (!own) return { ok: false, code: 'not_found' } as const
			const { rows } = await sql<{ id: string }>`select public.undo_client_merge(${mergeId}) as id`.execute(trx)
			return { ok: true, clientId: rows[0]!.id } as const
		})
	} catch (error) {
		const code = dbErrorCode(error)
		if ((UNDO_REFUSALS as readonly string[]).includes(code ?? '')) return { ok: false, code: code as UndoRefusal }
		throw error
	}
}

/** Says two clients of the organization are not duplicates (public.dismiss_client_duplicates). */
export async function dismissDuplicates(
	userId: string,
	organizationId: string,
	a: string,
	b: string,
): Promise<{ ok: true } | { ok: false; code: 'not_found' | 'same_client' | 'upgrade_inactive' }> {
	try {
		return await asUser(userId, async (trx) => {
			const own = await trx
				.selectFrom('clients')
				.select('id')
				.where('organization_id', '=', organizationId)
				.where('id', 'in', [a, b])
				.execute()
			if (own.length !== new Set([a, b]).size) return { ok: false, code: 'not_found' } as const
			await sql`select public.dismiss_client_duplicates(${a}, ${b})`.execute(trx)
			return { ok: true } as const
		})
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'not_found' || code === 'same_client' || code === 'upgrade_inactive') return { ok: false, code }
		throw error
	}
}

/** Deletes the merge records older than MERGE_UNDO_DAYS (they can no longer be undone). Returns how many. */
export async function pruneClientMerges(now = new Date()) {
	const result = await asSystem((trx) =>
		sql`delete from public.client_merges where merged_at < ${now}::timestamptz - make_interval(days => ${MERGE_UNDO_DAYS})`.execute(trx),
	)
	return Number(result.numAffectedRows ?? 0)
}

/** The daily pruning of merge records (app/.server/scheduler.ts). */
export const clientMergePruningJob: ScheduledJob = {
	name: 'client-merge-pruning',
	due: (now) => [now.toISOString().slice(0, 10)],
	run: async (_key, { now }) => {
		await pruneClientMerges(now)
	},
}
