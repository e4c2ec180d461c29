import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { imapConnectSchema } from '#app/lib/schemas/integrations.ts'

function parse(fields: Record<string, string>) {
	const form = new FormData()
	form.set('intent', 'connectImap')
	for (const [k, v] of Object.entries(fields)) form.set(k, v)
	return parseWithZod(form, { schema: imapConnectSchema })
}

const good = { host: 'imap.example.com', port: '993', tls: 'on', user: 'me@example.com', password: 'app password' }

describe('the IMAP connect form', () => {
	test('a complete form is accepted, TLS read from the checkbox', () => {
		const result = parse(good)
		expect(result.status).toBe('success')
		expect(result.status === 'success' && result.value).toMatchObject({ host: 'imap.example.com', port: 993, tls: true })
		const plain = parse({ ...good, tls: '' })
		expect(plain.status === 'success' && plain.value.tls).toBeFalsy()
	})

	test.each([
		[{ host: '' }, 'host', 'integrations.errors.hostRequired'],
		[{ host: 'not a host!' }, 'host', 'integrations.errors.hostInvalid'],
		[{ port: '0' }, 'port', 'integrations.errors.portInvalid'],
		[{ port: '70000' }, 'port', 'integrations.errors.portInvalid'],
		[{ port: 'abc' }, 'port', 'integrations.errors.portInvalid'],
		[{ user: '' }, 'user', 'integrations.errors.userRequired'],
		[{ user: 'me\u0000@example.com' }, 'user', 'integrations.errors.userInvalid'],
		[{ password: '' }, 'password', 'integrations.errors.passwordRequired'],
		[{ password: 'pass\u0000word' }, 'password', 'integrations.errors.passwordInvalid'],
	])('%o is refused on %s', (change, field, message) => {
		const result = parse({ ...good, ...change })
		expect(result.status).toBe('error')
		expect(result.status === 'error' && result.error?.[field]).toEqual([message])
	})

	test('an IP address is a valid host', () => {
		expect(parse({ ...good, host: '127.0.0.1' }).status).toBe('success')
	})
})
