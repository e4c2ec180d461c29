import { MODULES } from '#app/lib/modules.ts'
import { asUser, sql } from '../db/index.ts'

/**
 * Which CRM upgrades the organization owns (docs/product.md, Clients): CRM Basic Fields (tags,
 * notes, client CSV import and export) and CRM Pipelines (pipelines, the board, follow-ups). The
 * screens show a feature with its upgrade and offer it otherwise; the SQL functions refuse a
 * write without it (`upgrade_inactive`).
 */
export type CrmAccess = { basicFields: boolean; pipelines: boolean; enterprise: boolean }

export const BASIC_FIELDS_UPGRADE_ID = MODULES.crm.upgrades.basicFields.id
export const PIPELINES_UPGRADE_ID = MODULES.crm.upgrades.pipelines.id
/** CRM Enterprise: possible duplicates and undoing a merge (app/.server/crm/merges.ts), API tokens, the audit log. */
export const ENTERPRISE_UPGRADE_ID = MODULES.crm.upgrades.enterprise.id
/** Where a member buys them: the Clients CRM module's page. */
export const CRM_MODULE_PAGE = `/app/modules/${MODULES.crm.id}`

export async function crmAccess(userId: string, organizationId: string): Promise<CrmAccess> {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ upgrade_id: string }>`select u.upgrade_id from public.organization_module_upgrades u
			where u.organization_id = ${organizationId} and u.upgrade_id in (${BASIC_FIELDS_UPGRADE_ID}, ${PIPELINES_UPGRADE_ID}, ${ENTERPRISE_UPGRADE_ID})`.execute(
			trx,
		),
	)
	const owned = new Set(rows.map((r) => r.upgrade_id))
	return {
		basicFields: owned.has(BASIC_FIELDS_UPGRADE_ID),
		pipelines: owned.has(PIPELINES_UPGRADE_ID),
		enterprise: owned.has(ENTERPRISE_UPGRADE_ID),
	}
}

/** The stable codes the CRM's SQL functions refuse with (translated as clients:crm.errors.*). */
export const CRM_ERRORS = [
	'not_found',
	'not_member',
	'not_author',
	'not_manager',
	'upgrade_inactive',
	'tag_invalid',
	'too_many_tags',
	'note_empty',
	'note_too_long',
	'too_many_rows',
	'name_invalid',
	'stage_name_invalid',
	'stages_required',
	'too_many_stages',
	'too_many_pipelines',
	'stage_not_empty',
	'already_on_pipeline',
	'stage_not_in_pipeline',
	'owner_not_member',
	'date_invalid',
] as const
export type CrmError = (typeof CRM_ERRORS)[number]

export function isCrmError(code: unknown): code is CrmError {
	return typeof code === 'string' && (CRM_ERRORS as readonly string[]).includes(code)
}
