import { z } from 'zod'
import { EVERY_ROW_ERROR, metaOf, rowList, rowMeta } from '../editable-rows.ts'
import { bothAmountWritings, CONTROL_CHARACTERS, CONTROL_CHARACTERS_IN_TEXT, isMultiLine, isSingleLine, toDotDecimal } from './fields.ts'

/**
 * The booking services and providers tables (docs/product.md, Booking): the edit-mode forms,
 * shared by the browser (conform) and the actions. Messages are keys under booking:errors.
 * Every value is posted as text and checked here, so that an unparsable value gets a field
 * error instead of a silent default. Names are one line without control characters, descriptions
 * and bios may span lines (fields.ts).
 */

export const SERVICE_DEFAULT_COLOR = '#2563eb'
export const SERVICE_DURATION = { min: 5, max: 480 } as const
/** numeric(10, 2): at most eight digits before the point. */
const PRICE_PATTERN = /^\d{1,8}(\.\d{1,2})?$/
const WHOLE_PATTERN = /^\d{1,4}$/
const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/
/** The same test as the database's check on avatar_url. */
export const HTTP_URL_PATTERN = /^https?:\/\/[^\s]+$/

export const ACTIVE_STATES = ['active', 'inactive'] as const

/**
 * The deposit a service asks of a visitor who books it on the public page (docs/product.md,
 * Deposits and prepayment): none, a fixed amount (more than 0, at most the price), or the whole
 * price; optionally only from clients with at least N no-shows (the database's checks:
 * supabase/migrations/20261205000000_booked_and_paid.sql).
 */
export const DEPOSIT_KINDS = ['none', 'fixed', 'full'] as const
export type DepositKind = (typeof DEPOSIT_KINDS)[number]
export const DEPOSIT_NO_SHOWS = { min: 1, max: 20 } as const

const text = z.string().trim().optional()

/** A row of the services form, its price read as the page's language writes it (toDotDecimal). */
function serviceRowSchemaFor(dotGroups: boolean) {
	return z
		.object({
			...rowMeta,
			name: text,
			description: text,
			// Written as the language writes it ("45,50", "US$ 45", "1.500" in es) or with a dot.
			price: text.transform((value) => (value ? toDotDecimal(value.replace(/^(US)?\$\s*/, ''), { dotGroups }) : value)),
			duration: text,
			color: text,
			active: z.enum(ACTIVE_STATES, { error: 'activeInvalid' }),
			// A form of before deposits (a page loaded earlier) asks none.
			deposit: z.enum(DEPOSIT_KINDS, { error: 'depositKindInvalid' }).default('none'),
			depositAmount: text.transform((value) => (value ? toDotDecimal(value.replace(/^(US)?\$\s*/, ''), { dotGroups }) : value)),
			depositAfterNoShows: text,
		})
		.superRefine((row, ctx) => {
			if (row.id && !row.version) ctx.addIssue({ code: 'custom', message: 'rowInvalid', path: ['id'] })
			if (row.deleted) return
			checkDeposit(row, ctx)
			if (!row.name) ctx.addIssue({ code: 'custom', message: 'serviceNameRequired', path: ['name'] })
			else if (row.name.length > 120) ctx.addIssue({ code: 'custom', message: 'nameTooLong', path: ['name'] })
			else if (!isSingleLine(row.name)) ctx.addIssue({ code: 'custom', message: CONTROL_CHARACTERS, path: ['name'] })
			if ((row.description ?? '').length > 2000) ctx.addIssue({ code: 'custom', message: 'descriptionTooLong', path: ['description'] })
			else if (!isMultiLine(row.description ?? ''))
				ctx.addIssue({ code: 'custom', message: CONTROL_CHARACTERS_IN_TEXT, path: ['description'] })
			if (!row.price) ctx.addIssue({ code: 'custom', message: 'priceRequired', path: ['price'] })
			else if (!PRICE_PATTERN.test(row.price)) ctx.addIssue({ code: 'custom', message: 'priceInvalid', path: ['price'] })
			const minutes = Number(row.duration)
			if (!row.duration) ctx.addIssue({ code: 'custom', message: 'durationRequired', path: ['duration'] })
			else if (!WHOLE_PATTERN.test(row.duration) || minutes < SERVICE_DURATION.min || minutes > SERVICE_DURATION.max) {
				ctx.addIssue({ code: 'custom', message: 'durationInvalid', path: ['duration'] })
			}
			if (row.color && !COLOR_PATTERN.test(row.color)) ctx.addIssue({ code: 'custom', message: 'colorInvalid', path: ['color'] })
		}, EVERY_ROW_ERROR)
		.transform((row) => ({
			...metaOf(row),
			name: row.name ?? '',
			description: row.description || null,
			price: Number(row.price ?? 0).toFixed(2),
			durationMinutes: Math.trunc(Number(row.duration ?? 0)),
			color: (row.color || SERVICE_DEFAULT_COLOR).toLowerCase(),
			isActive: row.active === 'active',
			depositKind: row.deposit,
			depositAmount: row.deposit === 'fixed' ? Number(row.depositAmount ?? 0).toFixed(2) : null,
			depositAfterNoShows: row.deposit !== 'none' && row.depositAfterNoShows ? Number(row.depositAfterNoShows) : null,
		}))
}

/**
 * A fixed deposit needs an amount above 0 and at most the price; "only after N no-shows" is
 * empty or a whole number from 1 to 20. A service asking none keeps neither (they are ignored).
 */
function checkDeposit(
	row: { price?: string; deposit: DepositKind; depositAmount?: string; depositAfterNoShows?: string },
	ctx: z.RefinementCtx,
) {
	if (row.deposit === 'none') return
	if (row.deposit === 'fixed') {
		const amount = row.depositAmount
		if (!amount) ctx.addIssue({ code: 'custom', message: 'depositAmountRequired', path: ['depositAmount'] })
		else if (!PRICE_PATTERN.test(amount) || Number(amount) <= 0)
			ctx.addIssue({ code: 'custom', message: 'depositAmountInvalid', path: ['depositAmount'] })
		else if (row.price && PRICE_PATTERN.test(row.price) && Number(amount) > Number(row.price))
			ctx.addIssue({ code: 'custom', message: 'depositAbovePrice', path: ['depositAmount'] })
	}
	const noShows = row.depositAfterNoShows
	if (noShows && (!/^\d{1,2}$/.test(noShows) || Number(noShows) < DEPOSIT_NO_SHOWS.min || Number(noShows) > DEPOSIT_NO_SHOWS.max))
		ctx.addIssue({ code: 'custom', message: 'depositNoShowsInvalid', path: ['depositAfterNoShows'] })
}

const serviceSchemas = bothAmountWritings((dotGroups) => z.object({ rows: rowList(serviceRowSchemaFor(dotGroups)) }))

/** The services form's schema, prices read as en writes them. */
export const servicesSaveSchema = serviceSchemas.plain

/** The services form's schema in a language (the page's). */
export const servicesSaveSchemaIn = serviceSchemas.in

export type ServiceRowInput = z.output<typeof servicesSaveSchema>['rows'][number]

/** A new service's values: active, 30 minutes, $0.00, the default colour, no deposit. */
export function newServiceRow() {
	return {
		name: '',
		description: '',
		price: '0.00',
		duration: '30',
		color: SERVICE_DEFAULT_COLOR,
		active: 'active',
		deposit: 'none',
		depositAmount: '',
		depositAfterNoShows: '',
	}
}

export const providerRowSchema = z
	.object({
		...rowMeta,
		/** The member a new provider is; ignored on edit (a provider stays who they are). */
		member: text,
		displayName: text,
		bio: text,
		avatarUrl: text,
		active: z.enum(ACTIVE_STATES, { error: 'activeInvalid' }),
	})
	.superRefine((row, ctx) => {
		if (row.id && !row.version) ctx.addIssue({ code: 'custom', message: 'rowInvalid', path: ['id'] })
		if (row.deleted) return
		if (!row.id) {
			if (!row.member) ctx.addIssue({ code: 'custom', message: 'memberRequired', path: ['member'] })
			else if (!z.uuid().safeParse(row.member).success) ctx.addIssue({ code: 'custom', message: 'memberInvalid', path: ['member'] })
		}
		if ((row.displayName ?? '').length > 120) ctx.addIssue({ code: 'custom', message: 'nameTooLong', path: ['displayName'] })
		else if (!isSingleLine(row.displayName ?? '')) ctx.addIssue({ code: 'custom', message: CONTROL_CHARACTERS, path: ['displayName'] })
		// A provider being edited needs a name; a new one may leave it empty (the member's name is taken).
		if (row.id && !row.displayName) ctx.addIssue({ code: 'custom', message: 'displayNameRequired', path: ['displayName'] })
		if ((row.bio ?? '').length > 2000) ctx.addIssue({ code: 'custom', message: 'bioTooLong', path: ['bio'] })
		else if (!isMultiLine(row.bio ?? '')) ctx.addIssue({ code: 'custom', message: CONTROL_CHARACTERS_IN_TEXT, path: ['bio'] })
		if (
			row.avatarUrl &&
			(row.avatarUrl.length > 2048 || !HTTP_URL_PATTERN.test(row.avatarUrl) || !isSingleLine(row.avatarUrl) || !URL.canParse(row.avatarUrl))
		) {
			ctx.addIssue({ code: 'custom', message: 'avatarUrlInvalid', path: ['avatarUrl'] })
		}
	}, EVERY_ROW_ERROR)
	.transform((row) => ({
		...metaOf(row),
		member: row.member || null,
		displayName: row.displayName ?? '',
		bio: row.bio || null,
		avatarUrl: row.avatarUrl || null,
		isActive: row.active === 'active',
	}))

export type ProviderRowInput = z.output<typeof providerRowSchema>
export const providersSaveSchema = z.object({ rows: rowList(providerRowSchema) })

/** A new provider's values: no member chosen yet, active. */
export function newProviderRow() {
	return { member: '', displayName: '', bio: '', avatarUrl: '', active: 'active' }
}
