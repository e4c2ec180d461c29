/**
 * The organization side of Settings (docs/product.md, Settings): the organization card, its
 * branding (logo and colours, read by the public booking pages through
 * get_public_organization), and its deletion. Writes run as the signed-in user, so RLS and
 * the SQL functions check again that the user is an owner.
 */
import { asAnon, asUser, dbErrorCode, sql } from '../db/index.ts'
import { removePicture, replacePicture, type PictureRefusal, type PictureTarget } from '../images.ts'
import { storage } from '../storage/index.ts'
import { DEFAULT_BRAND_COLORS } from '#app/lib/schemas/settings.ts'

export type OrganizationSettings = {
	name: string
	slug: string
	description: string | null
	logoUrl: string | null
	brandColors: { primary: string; secondary: string }
	/** The organization's clock ("today", report ranges, booking times), kept in its booking settings. */
	timezone: string
	/** The US state (or DC) for the tax year's Form 1099-K check, or null. */
	state: string | null
}

export async function getOrganizationSettings(userId: string, organizationId: string): Promise<OrganizationSettings | null> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organizations as o')
			.leftJoin('booking_settings as b', 'b.organization_id', 'o.id')
			.select(['o.name', 'o.slug', 'o.description', 'o.logo_url', 'o.brand_colors', 'o.state', 'b.timezone'])
			.where('o.id', '=', organizationId)
			.executeTakeFirst(),
	)
	if (!row) return null
	const colors = (row.brand_colors ?? {}) as Partial<Record<'primary' | 'secondary', string>>
	return {
		name: row.name,
		slug: row.slug,
		description: row.description,
		logoUrl: row.logo_url,
		brandColors: { primary: colors.primary ?? DEFAULT_BRAND_COLORS.primary, secondary: colors.secondary ?? DEFAULT_BRAND_COLORS.secondary },
		timezone: row.timezone ?? 'UTC',
		state: row.state,
	}
}

export type OrganizationUpdate = { ok: true } | { ok: false; code: 'slug_taken' | 'slug_invalid' | 'not_found' }

/**
 * Name, description, slug and timezone in one transaction; the old slug redirects for 90 days,
 * and the appointments' local dates and times follow a new timezone (SQL).
 */
export async function updateOrganization(
	userId: string,
	organizationId: string,
	values: { name: string; description: string | null; slug: string; timezone: string; state?: string | null },
): Promise<OrganizationUpdate> {
	try {
		return await asUser(userId, async (trx) => {
			const updated = await trx
				.updateTable('organizations')
				.set({ name: values.name, description: values.description, ...(values.state === undefined ? {} : { state: values.state }) })
				.where('id', '=', organizationId)
				.executeTakeFirst()
			if (Number(updated.numUpdatedRows) === 0) return { ok: false, code: 'not_found' } as const
			await sql`select public.update_organization_slug(${organizationId}, ${values.slug})`.execute(trx)
			await trx
				.updateTable('booking_settings')
				.set({ timezone: values.timezone, timezone_confirmed: true })
				.where('organization_id', '=', organizationId)
				// Saved as shown, the zone is the owner's choice, UTC included (the shell stops asking).
				.where((eb) => eb.or([eb('timezone', '<>', values.timezone), eb('timezone_confirmed', '=', false)]))
				.execute()
			return { ok: true } as const
		})
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'slug_taken' || code === 'slug_invalid') return { ok: false, code }
		if (code === 'not_owner') return { ok: false, code: 'not_found' }
		throw error
	}
}

/** The organization's logo: `{org_id}/logo.{jpg|png}` in the logos bucket; RLS lets only its owners lock and change the row. */
function logoOf(organizationId: string): PictureTarget {
	return {
		bucket: 'logos',
		folder: organizationId,
		name: 'logo',
		lock: (trx) =>
			trx
				.selectFrom('organizations')
				.select('logo_url as url')
				.where('id', '=', organizationId)
				.forUpdate()
				.executeTakeFirst()
				.then((row) => row ?? null),
		record: async (trx, url) => {
			await trx.updateTable('organizations').set({ logo_url: url }).where('id', '=', organizationId).execute()
		},
	}
}

/**
 * Checks and re-encodes the logo (the avatar's rules and upload budget: images.ts, replacePicture),
 * stores it at {org_id}/logo.{ext}, and only then points the organization at it; `not_found` for
 * someone who is not an owner of it.
 */
export function setLogo(
	userId: string,
	organizationId: string,
	file: Blob,
): Promise<{ ok: true; url: string } | { ok: false; code: PictureRefusal }> {
	return replacePicture(userId, file, logoOf(organizationId))
}

/** The organization shows no logo, and its logo files go; false for someone who is not an owner of it. */
export function removeLogo(userId: string, organizationId: string) {
	return removePicture(userId, logoOf(organizationId))
}

export async function saveBrandColors(userId: string, organizationId: string, colors: { primary: string; secondary: string }) {
	const updated = await asUser(userId, (trx) =>
		trx
			.updateTable('organizations')
			.set({ brand_colors: JSON.stringify({ primary: colors.primary, secondary: colors.secondary }) })
			.where('id', '=', organizationId)
			.executeTakeFirst(),
	)
	return Number(updated.numUpdatedRows) > 0
}

export type DeletionResult = { ok: true } | { ok: false; code: 'wrong_confirmation' | 'not_owner' }

/**
 * Deletes the organization and all its data (SQL delete_organization_and_data checks the
 * owner and the phrase again), then its stored files. Members' accounts and their other
 * organizations stay.
 */
export async function deleteOrganization(userId: string, organizationId: string, confirmation: string): Promise<DeletionResult> {
	try {
		await asUser(userId, (trx) => sql`select public.delete_organization_and_data(${organizationId}, ${confirmation})`.execute(trx))
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'wrong_confirmation' || code === 'not_owner') return { ok: false, code }
		throw error
	}
	await storage().delete('logos', organizationId)
	return { ok: true }
}

/**
 * The current slug of an organization that used `slug` in the last 90 days, or null: the public
 * booking page (`/book/{slug}`) redirects with it when `get_public_organization` finds nothing.
 */
export async function resolveOldSlug(slug: string): Promise<string | null> {
	const { rows } = await asAnon((trx) => sql<{ slug: string | null }>`select public.resolve_old_slug(${slug}) as slug`.execute(trx))
	return rows[0]?.slug ?? null
}

/**
 * The owner's answer to the shell's question about an organization still in UTC (docs/product.md,
 * Time zones): a zone from the list, or null to keep the one it has. Either way the question is
 * not asked again. The route asks for the owner first (requireOwner).
 */
export async function confirmZone(userId: string, organizationId: string, zone: string | null): Promise<void> {
	await asUser(userId, (trx) =>
		trx
			.updateTable('booking_settings')
			.set(zone ? { timezone: zone, timezone_confirmed: true } : { timezone_confirmed: true })
			.where('organization_id', '=', organizationId)
			.execute(),
	)
}
