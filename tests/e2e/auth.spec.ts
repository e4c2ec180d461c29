import { withDatabase } from './db.ts'
import {
	decodeQuotedPrintable,
	expect,
	latestMailTo,
	mailedLink,
	mailsTo,
	newAccount,
	signInThroughUi,
	signUpByRequest,
	signUpThroughUi,
	tabTo,
	test,
} from './fixtures.ts'

test.describe('sign-up', () => {
	test('a new user signs up and lands on the dashboard of their own organization @nojs', async ({ page }) => {
		const account = newAccount('Ana Souza')
		await signUpThroughUi(page, account)
		await expect(page.getByTestId('current-organization')).toHaveText('Ana Souza')
		await expect(page.getByText('Account created!')).toBeVisible()
		await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link')).toHaveText([
			'Dashboard',
			'Module Marketplace',
			'Booking',
			'Transactions',
			'Clients',
			'Categories',
			'Reports',
			'Plans',
			'Settings',
		])
	})

	for (const [language, label, title, subtitle, fields, submit, heading] of [
		[
			'es',
			'Español',
			'Comienza ahora',
			'Crea tu cuenta para empezar a registrar transacciones P2P',
			['Nombre completo', 'Correo electrónico', 'Contraseña', 'Confirmar contraseña'],
			'Crear cuenta',
			'Panel',
		],
		[
			'pt-BR',
			'Português (Brasil)',
			'Comece agora',
			'Crie sua conta para começar a registrar transações P2P',
			['Nome completo', 'E-mail', 'Senha', 'Confirmar senha'],
			'Criar conta',
			'Painel',
		],
	] as const) {
		test(`sign-up works in ${language} @nojs`, async ({ page }) => {
			const account = newAccount('Lang User')
			await page.goto('/auth?mode=signup')
			await page.getByLabel('Language').click()
			await page.getByRole('button', { name: label }).click()
			await expect(page.locator('html')).toHaveAttribute('lang', language)
			await expect(page.getByRole('heading', { name: title })).toBeVisible()
			await expect(page.getByText(subtitle)).toBeVisible()
			await page.getByLabel(fields[0]).fill(account.fullName)
			await page.getByLabel(fields[1]).fill(account.email)
			await page.getByLabel(fields[2], { exact: true }).fill(account.password)
			await page.getByLabel(fields[3]).fill(account.password)
			await page.getByRole('button', { name: submit }).click()
			await expect(page).toHaveURL(/\/app\/dashboard$/)
			await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
		})
	}

	test('sign-up validation: missing fields, mismatch and weak password, in the documented order @nojs', async ({ page }) => {
		await page.goto('/auth?mode=signup')
		const submit = page.getByRole('button', { name: 'Create Account' })
		await submit.click()
		await expect(page.getByRole('alert')).toContainText('Missing Information')
		await expect(page.getByRole('alert')).toContainText('Please fill in all fields.')

		await page.getByLabel('Full Name').fill('Val Idation')
		await page.getByLabel('Email').fill(newAccount().email)
		await page.getByLabel('Password', { exact: true }).fill('abcdef')
		await page.getByLabel('Confirm Password').fill('abcdeg')
		await submit.click()
		await expect(page.getByRole('alert')).toContainText('Password Mismatch')
		await expect(page.getByRole('alert')).toContainText('Passwords do not match.')

		await page.getByLabel('Password', { exact: true }).fill('abc')
		await page.getByLabel('Confirm Password').fill('abc')
		await submit.click()
		await expect(page.getByRole('alert')).toContainText('Weak Password')
		await expect(page.getByRole('alert')).toContainText('Password must be at least 6 characters long.')
		await expect(page).toHaveURL(/\/auth/)
	})

	test('an email that already has an account is refused with Signup failed @nojs', async ({ page, request }) => {
		const account = newAccount()
		await signUpByRequest(request, account)
		await page.goto('/auth?mode=signup')
		await page.getByLabel('Full Name').fill('Someone Else')
		await page.getByLabel('Email').fill(account.email)
		await page.getByLabel('Password', { exact: true }).fill('another-pass')
		await page.getByLabel('Confirm Password').fill('another-pass')
		await page.getByRole('button', { name: 'Create Account' }).click()
		await expect(page.getByRole('alert')).toContainText('Signup failed')
	})
})

test.describe('sign-in', () => {
	test('missing email or password shows Missing Information @nojs', async ({ page }) => {
		await page.goto('/auth')
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page.getByRole('alert')).toContainText('Missing Information')
		await page.getByLabel('Email').fill('someone@example.test')
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page.getByRole('alert')).toContainText('Please enter your email and password.')
	})

	test('a wrong password and an unknown email get the same Login failed message @nojs', async ({ page, request }) => {
		const account = newAccount()
		await signUpByRequest(request, account)
		await signInThroughUi(page, { email: account.email, password: 'wrong-password' })
		await expect(page.getByRole('alert')).toContainText('Login failed')
		const wrongPassword = await page.getByRole('alert').textContent()
		await signInThroughUi(page, { email: newAccount().email, password: 'whatever-1' })
		await expect(page.getByRole('alert')).toHaveText(wrongPassword ?? '')
	})

	test('sign-in with the right password says Welcome back! and sign-out goes to / @nojs', async ({ page, request }) => {
		const account = newAccount()
		await signUpByRequest(request, account)
		await signInThroughUi(page, account)
		await expect(page).toHaveURL(/\/app\/dashboard$/)
		await expect(page.getByText('Welcome back!')).toBeVisible()
		await page.getByRole('button', { name: 'Sign out' }).click()
		await expect(page).toHaveURL(/\/$/)
		await page.goto('/app/dashboard')
		await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fapp%2Fdashboard$/)
	})

	test('pages with account data are never cached: Back after signing out asks the server again @nojs', async ({ page, request }) => {
		const account = newAccount('Back Button')
		await signUpByRequest(request, account)
		await signInThroughUi(page, account)
		await expect(page).toHaveURL(/\/app\/dashboard$/)
		const response = await page.goto('/app/transactions')
		expect(response!.headers()['cache-control']).toBe('private, no-store')
		const data = await page.request.get('/app/transactions.data')
		expect(data.headers()['cache-control']).toBe('private, no-store')
		await page.getByRole('button', { name: 'Sign out' }).click()
		await expect(page).toHaveURL(/\/$/)
		await page.goBack()
		await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fapp%2Ftransactions$/)
		await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible()
	})

	test('a profile that never saved a language takes the language it signs in with @nojs', async ({ page, request, browser }) => {
		const account = newAccount('No Language')
		await signUpByRequest(request, account)
		await withDatabase((c) =>
			c.query(`update public.profiles set preferred_language = null where user_id = (select id from auth.users where email = $1)`, [
				account.email,
			]),
		)
		await page.goto('/auth')
		await page.getByLabel('Language').click()
		await page.getByRole('button', { name: 'Español' }).click()
		await page.getByLabel('Correo electrónico').fill(account.email)
		await page.getByLabel('Contraseña', { exact: true }).fill(account.password)
		await page.getByRole('button', { name: 'Iniciar sesión' }).click()
		await expect(page).toHaveURL(/\/app\/dashboard$/)
		// A browser that never chose a language (English by its Accept-Language) reads Spanish after signing in.
		const elsewhere = await browser.newContext({ locale: 'en-US', javaScriptEnabled: test.info().project.use.javaScriptEnabled })
		const other = await elsewhere.newPage()
		await signInThroughUi(other, account)
		await expect(other).toHaveURL(/\/app\/dashboard$/)
		await expect(other.locator('html')).toHaveAttribute('lang', 'es')
		await elsewhere.close()
	})

	test('a signed-in visitor of /auth is sent to the dashboard', async ({ page }) => {
		await signUpThroughUi(page, newAccount())
		await page.goto('/auth')
		await expect(page).toHaveURL(/\/app\/dashboard$/)
	})

	test('after too many failures the sign-in is throttled, even with the right password @nojs', async ({ page, request }) => {
		const account = newAccount()
		await signUpByRequest(request, account)
		for (let i = 0; i < 5; i++) {
			await signInThroughUi(page, { email: account.email, password: `wrong-${i}` })
			await expect(page.getByRole('alert')).toContainText('Login failed')
		}
		await signInThroughUi(page, account)
		await expect(page.getByRole('alert')).toContainText('Too many attempts')
		await expect(page).toHaveURL(/\/auth/)
	})
})

test.describe('redirects', () => {
	test('/app/* without a session goes to /auth and comes back after sign-in @nojs', async ({ page, request }) => {
		const account = newAccount()
		await signUpByRequest(request, account)
		await page.goto('/app/clients?page=2')
		await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fapp%2Fclients%3Fpage%3D2$/)
		await page.getByLabel('Email').fill(account.email)
		await page.getByLabel('Password', { exact: true }).fill(account.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page).toHaveURL(/\/app\/clients\?page=2$/)
	})

	for (const target of ['//evil.example', '/\\evil.example', 'https://evil.example/x']) {
		test(`an off-site redirect target (${target}) is ignored`, async ({ page, request }) => {
			const account = newAccount()
			await signUpByRequest(request, account)
			await page.goto(`/auth?${new URLSearchParams({ redirectTo: target })}`)
			await page.getByLabel('Email').fill(account.email)
			await page.getByLabel('Password', { exact: true }).fill(account.password)
			await page.getByRole('button', { name: 'Sign In' }).click()
			await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/app\/dashboard$/)
		})
	}

	test('legacy paths redirect to /app and keep the query string', async ({ request }) => {
		for (const path of ['dashboard', 'transactions', 'clients', 'categories', 'reports', 'module-marketplace', 'booking', 'settings']) {
			const response = await request.get(`/${path}?q=1&x=y`, { maxRedirects: 0 })
			expect(response.status()).toBe(301)
			expect(new URL(response.headers().location!, 'http://x').pathname + new URL(response.headers().location!, 'http://x').search).toBe(
				`/app/${path}?q=1&x=y`,
			)
		}
	})

	test('/app redirects to /app/dashboard', async ({ page }) => {
		await signUpThroughUi(page, newAccount())
		await page.goto('/app')
		await expect(page).toHaveURL(/\/app\/dashboard$/)
	})

	test('an unknown path answers 404 with the not-found page @nojs', async ({ page }) => {
		const response = await page.goto('/no/such/page')
		expect(response?.status()).toBe(404)
		await expect(page.getByText('404')).toBeVisible()
		await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
		await page.getByRole('link', { name: 'Return to Home' }).click()
		await expect(page).toHaveURL(/\/$/)
	})
})

test.describe('email verification', () => {
	const verified = (email: string) =>
		withDatabase(
			async (db) =>
				(await db.query<{ v: boolean }>('select email_confirmed_at is not null as v from auth.users where email = $1', [email])).rows[0]!.v,
		)

	test('a new account is reminded to verify its address; the mailed link, confirmed signed in, verifies it and the reminder goes @nojs', async ({
		page,
	}) => {
		const account = newAccount('Verify Me')
		await signUpThroughUi(page, account)
		const reminder = page.getByRole('region', { name: 'Email verification' })
		await expect(reminder).toContainText(`we sent a link to ${account.email}`)
		await reminder.getByRole('button', { name: 'Send the link again' }).click()
		await expect(page.getByText(`Verification link sent to ${account.email}`)).toBeVisible()
		await expect(page).toHaveURL(/\/app\/dashboard$/)
		await page.goto(await mailedLink(account.email, '/auth/verify-email'))
		await expect(page.getByText(`Confirm that ${account.email} is your address?`)).toBeVisible()
		await page.getByRole('button', { name: 'Verify my email' }).click()
		await expect(page).toHaveURL(/\/app\/dashboard$/)
		await expect(page.getByText(`${account.email} is verified`)).toBeVisible()
		await expect(page.getByRole('region', { name: 'Email verification' })).toHaveCount(0)
		expect(await verified(account.email)).toBe(true)
	})

	test('opened signed out, the link changes nothing (a mail scanner), asks to sign in with the account, and verifies after it @nojs', async ({
		page,
		request,
	}) => {
		const account = newAccount('Link Opener')
		await signUpByRequest(request, account, { verify: false })
		const link = await mailedLink(account.email, '/auth/verify-email')
		expect((await page.request.get(link)).status()).toBe(200)
		await page.goto(link)
		await expect(page.getByText(`Sign in to the account of ${account.email} to verify its address.`)).toBeVisible()
		expect(await verified(account.email)).toBe(false)
		await page.getByRole('link', { name: 'Sign in to verify' }).click()
		await page.getByLabel('Email').fill(account.email)
		await page.getByLabel('Password', { exact: true }).fill(account.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page).toHaveURL(/\/auth\/verify-email\?token=/)
		await page.getByRole('button', { name: 'Verify my email' }).click()
		await expect(page.getByText(`${account.email} is verified`)).toBeVisible()
		expect(await verified(account.email)).toBe(true)
	})
})

test.describe('password recovery', () => {
	test('a reset link from the outbox sets a new password once @nojs', async ({ page, request }) => {
		const account = newAccount()
		await signUpByRequest(request, account)
		await page.goto('/auth')
		await page.getByRole('link', { name: 'Forgot password?' }).click()
		await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible()
		await page.getByLabel('Email').fill(account.email)
		await page.getByRole('button', { name: 'Send reset link' }).click()
		await expect(page.getByText('Check your email')).toBeVisible()

		const mail = await latestMailTo(account.email, 5_000, '/auth/reset-password')
		const link = /http:\/\/\S+\/auth\/reset-password\?token=[\w-]+/.exec(decodeQuotedPrintable(mail))?.[0]
		expect(link).toBeTruthy()
		await page.goto(link!)
		await page.getByLabel('New Password').fill('brand-new-pass')
		await page.getByLabel('Confirm Password').fill('brand-new-pass')
		await page.getByRole('button', { name: 'Update password' }).click()
		await expect(page).toHaveURL(/\/app\/dashboard$/)
		await expect(page.getByText('Password updated')).toBeVisible()

		await page.goto(link!)
		await expect(page.getByRole('alert')).toContainText('Invalid link')

		await page.context().clearCookies()
		await signInThroughUi(page, { email: account.email, password: account.password })
		await expect(page.getByRole('alert')).toContainText('Login failed')
		await signInThroughUi(page, { email: account.email, password: 'brand-new-pass' })
		await expect(page).toHaveURL(/\/app\/dashboard$/)
	})

	test('an unknown email gets the same answer and no mail @nojs', async ({ page, request }) => {
		const known = newAccount()
		await signUpByRequest(request, known)
		const unknown = newAccount().email
		for (const email of [unknown, known.email]) {
			await page.goto('/auth/forgot-password')
			await page.getByLabel('Email').fill(email)
			await page.getByRole('button', { name: 'Send reset link' }).click()
			await expect(page.getByText('Check your email')).toBeVisible()
		}
		// The known address's mail arrives; by then the unknown one's would have too (one queue, in order).
		await latestMailTo(known.email, 5_000, '/auth/reset-password')
		expect(mailsTo(unknown)).toHaveLength(0)
	})
})

test('without Google credentials there is no Google button, and a forced visit says it is not configured @nojs', async ({ page }) => {
	await page.goto('/auth')
	await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Continue with Google' })).toHaveCount(0)
	await page.goto('/auth/google')
	await expect(page.getByRole('alert')).toContainText('Google sign-in is not configured')
})

test('sign-in with the keyboard alone: Tab goes from the email to the password, Enter signs in @nojs', async ({ page, request }) => {
	const account = newAccount('Keys Only')
	await signUpByRequest(request, account)
	await page.goto('/auth')
	await tabTo(page, page.getByLabel('Email'))
	await page.keyboard.type(account.email)
	await page.keyboard.press('Tab')
	await expect(page.getByLabel('Password', { exact: true })).toBeFocused()
	await page.keyboard.type(account.password)
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/\/app\/dashboard$/)
})

test.describe("the new organization's zone (docs/product.md, Sign-up)", () => {
	test.use({ timezoneId: 'America/Sao_Paulo' })

	test('a browser in São Paulo signs up: the organization works in its zone, named in words in Settings', async ({ page }) => {
		const account = newAccount('Zona Paulista')
		await page.goto('/auth?mode=signup')
		// Once the page's script ran, the zone is the browser's and nothing is asked.
		await expect(page.getByLabel('Time zone of your business')).toHaveCount(0)
		await expect(page.locator('input[type=hidden][name=timezone]')).toHaveValue('America/Sao_Paulo')
		await page.getByLabel('Full Name').fill(account.fullName)
		await page.getByLabel('Email').fill(account.email)
		await page.getByLabel('Password', { exact: true }).fill(account.password)
		await page.getByLabel('Confirm Password').fill(account.password)
		await page.getByRole('button', { name: 'Create Account' }).click()
		await expect(page).toHaveURL(/\/app\/dashboard$/)
		await page.goto('/app/settings/organization')
		const zone = page.getByLabel('Timezone')
		await expect(zone).toHaveValue('America/Sao_Paulo')
		await expect(zone.locator('option:checked')).toHaveText(/\(São Paulo\)$/)
		await expect(zone.locator('option[value="America/Los_Angeles"]')).toHaveText('Pacific Time (Los Angeles)')
	})
})

test('without JavaScript the sign-up asks the zone, the language’s guess preselected; a zone outside the list creates nothing @nojs', async ({
	page,
	request,
}) => {
	// With JavaScript on, the browser's zone is sent instead (the test above).
	if (test.info().project.use.javaScriptEnabled === false) {
		await page.goto('/auth?mode=signup')
		const zone = page.getByLabel('Time zone of your business')
		await expect(zone).toHaveValue('America/New_York')
		await expect(zone.locator('option:checked')).toHaveText('Eastern Time (New York)')
	}

	const account = newAccount('Bad Zone')
	const response = await request.post('/auth?mode=signup', {
		form: {
			intent: 'signup',
			...{ fullName: account.fullName, email: account.email, password: account.password, confirmPassword: account.password },
			timezone: 'Mars/Olympus',
		},
		maxRedirects: 0,
	})
	expect(response.status()).toBe(400)
	expect(await response.text()).toMatch(/Choose your business(&#x27;|')s time zone from the list\./)
	// Nothing was created: the address signs in to nothing.
	const signIn = await request.post('/auth', {
		form: { intent: 'login', email: account.email, password: account.password },
		maxRedirects: 0,
	})
	expect(signIn.status()).toBe(400)
})
