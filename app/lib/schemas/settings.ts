import { z } from 'zod'
import { supportedLanguages } from '#app/lib/i18n.ts'
import { US_STATES } from '#app/lib/tax-year.ts'
import { MIN_PASSWORD_LENGTH, type Reauthentication } from '#app/lib/schemas/auth.ts'
import { CONTROL_CHARACTERS, CONTROL_CHARACTERS_IN_TEXT, MULTI_LINE, PHONE, SINGLE_LINE } from '#app/lib/schemas/fields.ts'
import { ROLES } from '#app/lib/roles.ts'
import { ORGANIZATION_TIMEZONES } from '#app/lib/timezones.ts'

/**
 * The settings forms (docs/product.md, Settings), shared by the browser (conform) and the
 * actions. Messages are translation keys under settings:errors. Limits are the database's
 * checks (profiles and organizations in supabase/migrations/20261122000100_foundation.sql).
 */
// An optional text: the 2,000-character one (a description) may span lines, the others are one line (fields.ts).
const optionalText = (max: 40 | 120 | 2000) =>
	z
		.string()
		.trim()
		.max(max, `tooLong${max}`)
		.regex(max === 2000 ? MULTI_LINE : SINGLE_LINE, max === 2000 ? CONTROL_CHARACTERS_IN_TEXT : CONTROL_CHARACTERS)
		.optional()
		.transform((v) => (v ? v : null))

export const USERNAME = /^[A-Za-z0-9_.-]{2,40}$/

export const profileSchema = z.object({
	fullName: optionalText(120),
	username: z
		.string()
		.trim()
		.optional()
		.refine((v) => !v || USERNAME.test(v), 'usernameInvalid')
		.transform((v) => (v ? v : null)),
	phone: optionalText(40).refine((v) => v === null || PHONE.test(v), 'phoneInvalid'),
	preferredLanguage: z.enum(supportedLanguages, 'required'),
})
export type ProfileValues = z.infer<typeof profileSchema>

/** Server-side the same rules as the form: all three filled, new ≥ 6 characters, new = confirm, new ≠ current. */
export const passwordSchema = z
	.object({
		currentPassword: z.string({ error: 'required' }).min(1, 'required'),
		newPassword: z.string({ error: 'required' }).min(1, 'required'),
		confirmPassword: z.string({ error: 'required' }).min(1, 'required'),
	})
	.superRefine((v, ctx) => {
		if (v.newPassword !== v.confirmPassword) ctx.addIssue({ code: 'custom', message: 'passwordMismatch', path: ['confirmPassword'] })
		else if (v.newPassword.length < MIN_PASSWORD_LENGTH)
			ctx.addIssue({ code: 'custom', message: 'passwordTooShort', path: ['newPassword'] })
		else if (v.newPassword === v.currentPassword) ctx.addIssue({ code: 'custom', message: 'passwordUnchanged', path: ['newPassword'] })
	})

export const emailChangeSchema = z.object({
	email: z.string({ error: 'required' }).trim().toLowerCase().max(254, 'tooLong254').email('emailInvalid'),
})

/** The email form: the new address, and the current password when the account has one (the server checks it). */
export function emailChangeFormSchema(reauthentication: Reauthentication) {
	return emailChangeSchema.extend({
		currentPassword:
			reauthentication === 'password'
				? z.string({ error: 'required' }).min(1, 'required').max(1000, 'required')
				: z.string().max(1000).optional(),
	})
}

export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

export const organizationSchema = z.object({
	name: z.string({ error: 'required' }).trim().min(1, 'required').max(120, 'tooLong120').regex(SINGLE_LINE, CONTROL_CHARACTERS),
	description: optionalText(2000),
	slug: z.string({ error: 'required' }).trim().toLowerCase().min(1, 'required').max(63, 'tooLong63').regex(SLUG, 'slugInvalid'),
	timezone: z.enum(ORGANIZATION_TIMEZONES, { error: 'timezoneInvalid' }),
	/** The US state (or DC) for the tax year's Form 1099-K check; none selected: not in the US / not set. */
	state: z
		.enum(US_STATES, { error: 'stateInvalid' })
		.optional()
		.transform((v) => v ?? null),
})

const HEX = /^#[0-9a-fA-F]{6}$/
export const DEFAULT_BRAND_COLORS = { primary: '#2563eb', secondary: '#64748b' } as const

export const brandingSchema = z.object({
	primary: z
		.string({ error: 'required' })
		.trim()
		.regex(HEX, 'colorInvalid')
		.transform((v) => v.toLowerCase()),
	secondary: z
		.string({ error: 'required' })
		.trim()
		.regex(HEX, 'colorInvalid')
		.transform((v) => v.toLowerCase()),
})

export const DELETE_PHRASE = 'DELETE MY ORGANIZATION'

export const NOTIFICATION_KINDS = ['emailNotifications', 'transactionAlerts', 'weeklyReports'] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]
/** Defaults of docs/product.md (Settings): email notifications and transaction alerts on, weekly reports off. */
export const NOTIFICATION_DEFAULTS: Record<NotificationKind, boolean> = {
	emailNotifications: true,
	transactionAlerts: true,
	weeklyReports: false,
}

/** WCAG 2 relative luminance contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string) {
	const lum = (hex: string) => {
		const [r, g, bl] = [1, 3, 5].map((i) => {
			const c = parseInt(hex.slice(i, i + 2), 16) / 255
			return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
		}) as [number, number, number]
		return 0.2126 * r + 0.7152 * g + 0.0722 * bl
	}
	const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number]
	return (x + 0.05) / (y + 0.05)
}

/** AA for normal text: 4.5:1. Buttons paint white text on the primary colour, and the secondary on white. */
export function brandContrastWarnings(colors: { primary: string; secondary: string }) {
	const warnings: Array<'primary' | 'secondary'> = []
	if (contrastRatio(colors.primary, '#ffffff') < 4.5) warnings.push('primary')
	if (contrastRatio(colors.secondary, '#ffffff') < 4.5) warnings.push('secondary')
	return warnings
}

export const inviteSchema = z.object({
	email: z.string({ error: 'required' }).trim().toLowerCase().max(254, 'tooLong254').email('emailInvalid'),
	role: z.enum(ROLES, 'roleInvalid'),
})
