/**
 * Personal API tokens (docs/api.md; docs/product.md, API tokens), with the CRM Enterprise
 * upgrade. A token is `p2p_` and 32 random bytes in base64url; only its SHA-256 is kept
 * (public.api_tokens, migration 20261209410000_api_tokens.sql), and it is shown once, when made.
 * A request that carries one is let in as its member, for its organization and its scopes only.
 */
import { createHash, randomBytes } from 'node:crypto'
import { MODULES } from '#app/lib/modules.ts'
import type { ApiScope } from '#app/lib/schemas/api-tokens.ts'
import { asSystem, asUser, sql } from '../db/index.ts'

/** The upgrade that opens API tokens (app/lib/modules.ts). */
export const API_UPGRADE_ID = MODULES.crm.upgrades.enterprise.id

/** How many live tokens a member may hold in one organization. */
export const MAX_TOKENS_PER_MEMBER = 10

const TOKEN_PREFIX = 'p2p_'
/** `p2p_` and 43 base64url characters (32 bytes). */
const TOKEN_SHAPE = /^p2p_[A-Za-z0-9_-]{43}$/

export type ApiToken = {
	id: string
	name: string
	prefix: string
	scopes: ApiScope[]
	createdAt: string
	lastUsedAt: string | null
	revokedAt: string | null
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/** Whether the organization owns CRM Enterprise (the screen and the API need it). */
export async function ownsApiUpgrade(userId: string, organizationId: string) {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_module_upgrades')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('upgrade_id', '=', API_UPGRADE_ID)
			.executeTakeFirst(),
	)
	return row !== undefined
}

/** The member's tokens in the organization, newest first (revoked ones too, marked). */
export async function listTokens(userId: string, organizationId: string): Promise<ApiToken[]> {
	const { rows } = await asUser(userId, (trx) =>
		sql<ApiToken>`select id, name, prefix, scopes, created_at::text as "createdAt", last_used_at::text as "lastUsedAt",
			revoked_at::text as "revokedAt"
		from public.api_tokens where organization_id = ${organizationId} and user_id = ${userId}
		order by created_at desc, id`.execute(trx),
	)
	return rows
}

export type CreateResult = { ok: true; token: string; id: string } | { ok: false; error: 'tooMany' | 'noUpgrade' }

/**
 * Makes a token for the member: the token comes back once, only its hash is stored. Refused
 * past MAX_TOKENS_PER_MEMBER live tokens, and (by RLS) where the organization lacks the upgrade.
 */
export async function createToken(userId: string, organizationId: string, name: string, scopes: ApiScope[]): Promise<CreateResult> {
	if (!(await ownsApiUpgrade(userId, organizationId))) return { ok: false, error: 'noUpgrade' }
	const token = TOKEN_PREFIX + randomBytes(32).toString('base64url')
	return asUser(userId, async (trx) => {
		// Serializes one member's creations, so two at once cannot pass the limit together.
		await sql`select pg_advisory_xact_lock(hashtextextended(${`api-tokens:${organizationId}:${userId}`}, 0))`.execute(trx)
		const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.api_tokens
			where organization_id = ${organizationId} and user_id = ${userId} and revoked_at is null`.execute(trx)
		if ((rows[0]?.n ?? 0) >= MAX_TOKENS_PER_MEMBER) return { ok: false, error: 'tooMany' } as const
		const inserted = await sql<{ id: string }>`insert into public.api_tokens (organization_id, user_id, name, token_hash, prefix, scopes)
			values (${organizationId}, ${userId}, ${name}, ${hashOf(token)}, ${token.slice(0, 12)}, ${scopes}::text[]) returning id`.execute(trx)
		return { ok: true, token, id: inserted.rows[0]!.id } as const
	})
}

/** Revokes one of the member's tokens; false when it is not theirs or already revoked. */
export async function revokeToken(userId: string, organizationId: string, tokenId: string) {
	const result = await asUser(userId, (trx) =>
		sql`update public.api_tokens set revoked_at = now()
			where id = ${tokenId} and organization_id = ${organizationId} and user_id = ${userId} and revoked_at is null`.execute(trx),
	)
	return Number(result.numAffectedRows ?? 0) === 1
}

/** Who a token lets in: its member, organization and scopes. */
export type TokenHolder = { tokenId: string; userId: string; organizationId: string; scopes: ApiScope[] }

/**
 * The holder of a bearer token, or null: an unknown or malformed token, a revoked one, one whose
 * member left the organization, or an organization without the upgrade. Stamps its last use (at
 * most once a minute, so that a busy client does not write on every call).
 */
export async function tokenHolder(token: string): Promise<TokenHolder | null> {
	if (!TOKEN_SHAPE.test(token)) return null
	const { rows } = await asSystem((trx) =>
		sql<TokenHolder>`
			with found as (
				select t.id, t.user_id, t.organization_id, t.scopes from public.api_tokens t
				where t.token_hash = ${hashOf(token)} and t.revoked_at is null
					and exists (select 1 from public.organization_members m where m.organization_id = t.organization_id and m.user_id = t.user_id)
					and exists (select 1 from public.organization_module_upgrades u where u.organization_id = t.organization_id and u.upgrade_id = ${API_UPGRADE_ID})
			), stamped as (
				update public.api_tokens t set last_used_at = now() from found
				where t.id = found.id and (t.last_used_at is null or t.last_used_at < now() - interval '1 minute')
			)
			select id as "tokenId", user_id as "userId", organization_id as "organizationId", scopes from found`.execute(trx),
	)
	return rows[0] ?? null
}
