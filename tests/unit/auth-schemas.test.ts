import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { loginSchema, signUpSchema } from '#app/lib/schemas/auth.ts'

function form(values: Record<string, string>) {
	const data = new FormData()
	for (const [k, v] of Object.entries(values)) data.set(k, v)
	return data
}

function firstError(schema: typeof signUpSchema | typeof loginSchema, values: Record<string, string>) {
	const submission = parseWithZod(form(values), { schema })
	return submission.status === 'success' ? null : submission.error?.['']?.[0]
}

describe('sign-up validation (in the order of docs/product.md, Validation)', () => {
	const valid = { fullName: 'Ana', email: 'ana@example.com', password: 'secret1', confirmPassword: 'secret1' }
	test('any empty field: Missing Information', () => {
		for (const key of Object.keys(valid)) expect(firstError(signUpSchema, { ...valid, [key]: '' })).toBe('missingInformation')
		expect(firstError(signUpSchema, { ...valid, fullName: '   ' })).toBe('missingInformation')
	})
	test('different passwords: Password Mismatch, before the length check', () => {
		expect(firstError(signUpSchema, { ...valid, password: 'abc', confirmPassword: 'abd' })).toBe('passwordMismatch')
	})
	test('fewer than 6 characters: Weak Password', () => {
		expect(firstError(signUpSchema, { ...valid, password: 'abcde', confirmPassword: 'abcde' })).toBe('weakPassword')
	})
	test('a malformed email is refused', () => {
		expect(firstError(signUpSchema, { ...valid, email: 'ana@example' })).toBe('invalidEmail')
	})
	test('valid input passes, trimmed', () => {
		const submission = parseWithZod(form({ ...valid, fullName: '  Ana  ' }), { schema: signUpSchema })
		expect(submission.status).toBe('success')
		if (submission.status === 'success') expect(submission.value.fullName).toBe('Ana')
	})
})

describe('login validation', () => {
	test('email and password are both required', () => {
		expect(firstError(loginSchema, { email: '', password: 'x' })).toBe('missingLogin')
		expect(firstError(loginSchema, { email: 'a@b.co', password: '' })).toBe('missingLogin')
		expect(firstError(loginSchema, { email: 'a@b.co', password: 'x' })).toBeNull()
	})
})
