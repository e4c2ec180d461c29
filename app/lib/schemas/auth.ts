import { z } from 'zod'
import { CONTROL_CHARACTERS, isSingleLine, SINGLE_LINE } from './fields.ts'

/**
 * The auth forms' schemas, shared by the browser (conform) and the actions. Messages are
 * translation keys under auth:errors. Checks follow the order of docs/product.md (Validation) and stop at the first.
 */
export const MIN_PASSWORD_LENGTH = 6

/**
 * How the user at the keyboard proves it is the account's holder before a change that could lock
 * the holder out (the sign-in email; docs/decisions/037-verified-addresses.md): `password`, the
 * current password; an account without one (Google only) has `recent` when this browser signed in
 * a moment ago (REAUTH_MINUTES, app/.server/auth/local.ts), else `stale` (sign in again first).
 */
export type Reauthentication = 'password' | 'recent' | 'stale'
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const text = z.string().trim().max(254).optional()
const secret = z.string().max(200).optional()

export const loginSchema = z
	.object({ email: text, password: secret, redirectTo: z.string().optional() })
	.superRefine((v, ctx) => {
		if (!v.email || !v.password) ctx.addIssue({ code: 'custom', message: 'missingLogin', path: [] })
	})
	.transform((v) => ({ email: v.email ?? '', password: v.password ?? '', redirectTo: v.redirectTo }))

export const signUpSchema = z
	.object({ fullName: z.string().trim().max(120).optional(), email: text, password: secret, confirmPassword: secret })
	.superRefine((v, ctx) => {
		if (!v.fullName || !v.email || !v.password || !v.confirmPassword) {
			ctx.addIssue({ code: 'custom', message: 'missingInformation', path: [] })
		} else if (!isSingleLine(v.fullName)) {
			// The name is the new organization's: one line of plain text (fields.ts).
			ctx.addIssue({ code: 'custom', message: CONTROL_CHARACTERS, path: [] })
		} else if (!EMAIL.test(v.email) || !isSingleLine(v.email)) {
			ctx.addIssue({ code: 'custom', message: 'invalidEmail', path: [] })
		} else if (v.password !== v.confirmPassword) {
			ctx.addIssue({ code: 'custom', message: 'passwordMismatch', path: [] })
		} else if (v.password.length < MIN_PASSWORD_LENGTH) {
			ctx.addIssue({ code: 'custom', message: 'weakPassword', path: [] })
		}
	})
	.transform((v) => ({
		fullName: v.fullName ?? '',
		email: v.email ?? '',
		password: v.password ?? '',
	}))

export const forgotPasswordSchema = z.object({
	email: z.string({ error: 'missingEmail' }).trim().max(254).regex(EMAIL, 'invalidEmail').regex(SINGLE_LINE, 'invalidEmail'),
})

export const resetPasswordSchema = z
	.object({ token: z.string().max(200).optional(), password: secret, confirmPassword: secret })
	.superRefine((v, ctx) => {
		if (!v.password || !v.confirmPassword) {
			ctx.addIssue({ code: 'custom', message: 'missingInformation', path: [] })
		} else if (v.password !== v.confirmPassword) {
			ctx.addIssue({ code: 'custom', message: 'passwordMismatch', path: [] })
		} else if (v.password.length < MIN_PASSWORD_LENGTH) {
			ctx.addIssue({ code: 'custom', message: 'weakPassword', path: [] })
		}
	})
	.transform((v) => ({ token: v.token ?? '', password: v.password ?? '' }))
