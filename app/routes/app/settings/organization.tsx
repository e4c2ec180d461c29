import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, useSearchParams } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { requireMember, requireOwner } from '#app/.server/auth/session.ts'
import { publicBookingUrl } from '#app/.server/booking/staff.ts'
import { pictureRefusalKey } from '#app/.server/images.ts'
import { logError } from '#app/.server/log.ts'
import {
	deleteOrganization,
	getOrganizationSettings,
	removeLogo,
	saveBrandColors,
	setLogo,
	updateOrganization,
} from '#app/.server/organizations/settings.ts'
import { removeMember } from '#app/.server/organizations/members.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { TimezoneSelect } from '#app/components/forms/timezone-select.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { isOwner } from '#app/lib/roles.ts'
import { brandContrastWarnings, brandingSchema, contrastRatio, DELETE_PHRASE, organizationSchema } from '#app/lib/schemas/settings.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { firstError } from './field-error.ts'
import type { Route } from './+types/organization'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

const HERE = '/app/settings/organization'

export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const settings = await getOrganizationSettings(user.userId, organization.id)
	if (!settings) return errorResponse(404, 'notFound')
	return {
		settings,
		role: organization.role,
		gears: { owned: organization.gearsOwned, remaining: organization.gearsRemaining },
		bookingUrl: publicBookingUrl(settings.slug),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await request.formData()
	if (formData.get('intent') === 'leave') {
		// Any member may leave, except the last owner.
		const { user, organization } = requireMember(context)
		const left = await removeMember({ userId: user.userId, role: organization.role }, organization.id, user.userId)
		if (!left.ok) return redirectWithToast(HERE, { type: 'error', title: 'settings:errors.lastOwner' })
		return redirectWithToast('/app/dashboard', { type: 'success', title: 'settings:members.left' })
	}
	// Every other change here is the owners' (docs/product.md, Settings): a forged post gets 403.
	const { user, organization } = requireOwner(context)
	switch (formData.get('intent')) {
		case 'organization': {
			const submission = parseWithZod(formData, { schema: organizationSchema })
			if (submission.status !== 'success') return data({ organization: submission.reply() }, { status: 400 })
			const saved = await updateOrganization(user.userId, organization.id, submission.value)
			if (!saved.ok) {
				if (saved.code === 'not_found') return errorResponse(404, 'notFound')
				return data({ organization: submission.reply({ fieldErrors: { slug: [saved.code === 'slug_taken' ? 'slugTaken' : 'slugInvalid'] } }) }, { status: 400 })
			}
			return redirectWithToast(HERE, { type: 'success', title: 'settings:organization.saved' })
		}
		case 'logo-upload': {
			const file = formData.get('logo')
			// The avatar's path (images.ts, replacePicture): upload budget, checks, stored before recorded.
			const result =
				file instanceof File && file.size > 0
					? await setLogo(user.userId, organization.id, file).catch((error: unknown) => {
							logError(error, { event: 'logo_upload_failed' })
							return null
						})
					: ({ ok: false, code: 'invalid_type' } as const)
			if (!result) return redirectWithToast(HERE, { type: 'error', title: 'settings:branding.logoFailed.title', description: 'settings:branding.logoFailed.description' })
			if (!result.ok) {
				if (result.code === 'not_found') return errorResponse(404, 'notFound')
				const key = pictureRefusalKey(result.code)
				return redirectWithToast(HERE, { type: 'error', title: `settings:avatar.${key}.title`, description: `settings:avatar.${key}.description` })
			}
			return redirectWithToast(HERE, { type: 'success', title: 'settings:branding.logoUpdated' })
		}
		case 'logo-remove': {
			await removeLogo(user.userId, organization.id)
			return redirectWithToast(HERE, { type: 'success', title: 'settings:branding.logoRemoved' })
		}
		case 'branding': {
			const submission = parseWithZod(formData, { schema: brandingSchema })
			if (submission.status !== 'success') return data({ branding: submission.reply() }, { status: 400 })
			if (!(await saveBrandColors(user.userId, organization.id, submission.value))) return errorResponse(404, 'notFound')
			return redirectWithToast(HERE, { type: 'success', title: 'settings:branding.saved' })
		}
		case 'delete': {
			const confirmation = String(formData.get('confirmation') ?? '')
			const deleted = await deleteOrganization(user.userId, organization.id, confirmation)
			if (!deleted.ok) {
				if (deleted.code === 'not_owner') return errorResponse(403, 'ownerOnly')
				return data({ deleteError: 'wrongPhrase' as const }, { status: 400 })
			}
			// docs/product.md (Settings): after the deletion the browser goes to /auth.
			return redirectWithToast('/auth', { type: 'success', title: 'settings:danger.deleted' })
		}
		default:
			return errorResponse(400, 'badRequest')
	}
}

export default function OrganizationTab({ loaderData, actionData }: Route.ComponentProps) {
	const owner = isOwner(loaderData.role)
	return (
		<div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
			<OrganizationCard {...loaderData} owner={owner} lastResult={actionData && 'organization' in actionData ? actionData.organization : undefined} />
			<div className="grid content-start gap-6">
				{owner ? <BrandingCard settings={loaderData.settings} lastResult={actionData && 'branding' in actionData ? actionData.branding : undefined} /> : null}
				<LeaveCard organizationName={loaderData.settings.name} />
				{owner ? <DangerZone error={actionData && 'deleteError' in actionData ? actionData.deleteError : undefined} /> : null}
			</div>
		</div>
	)
}

type Loader = Route.ComponentProps['loaderData']
type LastResult = Parameters<typeof useForm>[0]['lastResult']

function OrganizationCard({ settings, role, gears, bookingUrl, owner, lastResult }: Loader & { owner: boolean; lastResult: LastResult }) {
	const fmt = useFormat()
	const { t } = useTranslation('settings')
	const { t: tc } = useTranslation()
	const [form, fields] = useForm({
		id: 'organization',
		lastResult,
		constraint: getZodConstraint(organizationSchema),
		defaultValue: { name: settings.name, description: settings.description ?? '', slug: settings.slug, timezone: settings.timezone },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: organizationSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const error = (errors: unknown) => {
		const key = firstError(errors)
		return key ? t(`errors.${key}`) : undefined
	}
	return (
		<Card>
			<CardHeader>
				<CardTitle className="flex flex-wrap items-center gap-2">
					<h2>{settings.name}</h2>
					<Badge variant={owner ? 'default' : 'secondary'} data-testid="role-badge">
						{tc(`roles.${role}`)}
					</Badge>
				</CardTitle>
				<CardDescription>{t('organization.gears', { remaining: fmt.number(gears.remaining), owned: fmt.number(gears.owned) })}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				{settings.description ? <p className="text-sm whitespace-pre-line">{settings.description}</p> : null}
				{owner ? (
					<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
						<input type="hidden" name="intent" value="organization" />
						<Field label={t('organization.fields.name')} htmlFor={fields.name.id} errorId={fields.name.errorId} error={error(fields.name.errors)}>
							<Input {...getInputProps(fields.name, { type: 'text' })} />
						</Field>
						<Field label={t('organization.fields.description')} htmlFor={fields.description.id} errorId={fields.description.errorId} error={error(fields.description.errors)}>
							<Textarea {...getTextareaProps(fields.description)} rows={3} />
						</Field>
						<Field label={t('organization.fields.slug')} htmlFor={fields.slug.id} errorId={fields.slug.errorId} error={error(fields.slug.errors)}>
							<Input {...getInputProps(fields.slug, { type: 'text' })} aria-describedby={`${fields.slug.id}-hint`} />
							<p id={`${fields.slug.id}-hint`} className="text-xs text-muted-foreground">
								{t('organization.slugWarning', { url: bookingUrl })}
							</p>
						</Field>
						<Field label={t('organization.fields.timezone')} htmlFor={fields.timezone.id} errorId={fields.timezone.errorId} error={error(fields.timezone.errors)}>
							<TimezoneSelect field={fields.timezone} hintId={`${fields.timezone.id}-hint`} />
							<p id={`${fields.timezone.id}-hint`} className="text-xs text-muted-foreground">
								{t('organization.timezoneHint')}
							</p>
						</Field>
						<SubmitButton intent="organization" label={t('organization.save')} pendingLabel={t('organization.saving')} className="w-fit" />
					</AppForm>
				) : (
					<p className="text-sm text-muted-foreground">{t('organization.ownerOnly')}</p>
				)}
			</CardContent>
		</Card>
	)
}

function BrandingCard({ settings, lastResult }: { settings: Loader['settings']; lastResult: LastResult }) {
	const { t } = useTranslation('settings')
	const [colors, setColors] = useState(settings.brandColors)
	const [form, fields] = useForm({
		id: 'branding',
		lastResult,
		constraint: getZodConstraint(brandingSchema),
		defaultValue: settings.brandColors,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: brandingSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const valid = (v: string) => /^#[0-9a-fA-F]{6}$/.test(v)
	const shown = { primary: valid(colors.primary) ? colors.primary : settings.brandColors.primary, secondary: valid(colors.secondary) ? colors.secondary : settings.brandColors.secondary }
	const warnings = brandContrastWarnings(shown)
	const colorField = (name: 'primary' | 'secondary') => (
		<Field label={t(`branding.${name}`)} htmlFor={fields[name].id} errorId={fields[name].errorId} error={firstError(fields[name].errors) ? t(`errors.${firstError(fields[name].errors)}`) : undefined}>
			<div className="flex items-center gap-2">
				<input
					type="color"
					aria-label={t('branding.picker', { name: t(`branding.${name}`) })}
					value={shown[name]}
					onChange={(e) => {
						const value = e.currentTarget.value
						setColors((c) => ({ ...c, [name]: value }))
					}}
					className="h-9 w-12 cursor-pointer rounded border"
					tabIndex={-1}
				/>
				<Input
					id={fields[name].id}
					name={fields[name].name}
					aria-invalid={fields[name].errors ? true : undefined}
					aria-describedby={fields[name].errors ? fields[name].errorId : undefined}
					value={colors[name]}
					onChange={(e) => {
						const value = e.currentTarget.value
						setColors((c) => ({ ...c, [name]: value }))
					}}
					className="font-mono"
					maxLength={7}
				/>
			</div>
		</Field>
	)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('branding.title')}</h2>
				</CardTitle>
				<CardDescription>{t('branding.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-6">
				<div className="flex flex-wrap items-center gap-4">
					{settings.logoUrl ? (
						<img src={settings.logoUrl} alt={t('branding.logoAlt')} width={64} height={64} className="size-16 rounded-md border object-contain" data-testid="org-logo" />
					) : null}
					<div className="grid gap-2">
						<AppForm method="post" encType="multipart/form-data" className="flex flex-wrap items-center gap-2">
							<input type="hidden" name="intent" value="logo-upload" />
							<label className="sr-only" htmlFor="logo-file">
								{t('branding.logoChoose')}
							</label>
							<input id="logo-file" name="logo" type="file" accept="image/jpeg,image/png,image/gif" required className="max-w-56 text-sm" />
							<SubmitButton intent="logo-upload" label={t('branding.logoUpload')} pendingLabel={t('avatar.uploading')} />
						</AppForm>
						<p className="text-xs text-muted-foreground">{t('avatar.hint')}</p>
						{settings.logoUrl ? (
							<AppForm method="post">
								<input type="hidden" name="intent" value="logo-remove" />
								<Button type="submit" variant="outline" size="sm">
									{t('branding.logoRemove')}
								</Button>
							</AppForm>
						) : null}
					</div>
				</div>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="branding" />
					<div className="grid gap-4 sm:grid-cols-2">
						{colorField('primary')}
						{colorField('secondary')}
					</div>
					<div className="grid gap-2">
						<p className="text-sm font-medium">{t('branding.preview')}</p>
						<div className="flex gap-2 rounded-md border p-4" data-testid="brand-preview">
							<span className="rounded-md px-4 py-2 text-sm font-medium text-white" style={{ backgroundColor: shown.primary }}>
								{t('branding.previewButton')}
							</span>
							<span className="rounded-md px-4 py-2 text-sm font-medium text-white" style={{ backgroundColor: shown.secondary }}>
								{t('branding.previewSecondary')}
							</span>
						</div>
						{warnings.map((which) => (
							<p key={which} role="status" className="text-sm text-amber-700 dark:text-amber-400">
								{t('branding.contrastWarning', { which: t(`branding.which.${which}`), ratio: contrastRatio(shown[which], '#ffffff').toFixed(1) })}
							</p>
						))}
					</div>
					<SubmitButton intent="branding" label={t('branding.save')} pendingLabel={t('organization.saving')} className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}

/** Leaving asks first, on a page of its own (`?leave=1`, works without JavaScript). */
const LEAVE_QUESTION = '/app/settings/organization?leave=1'

function LeaveCard({ organizationName }: { organizationName: string }) {
	const { t } = useTranslation('settings')
	if (useSearchParams()[0].get('leave') === '1') {
		return (
			<ConfirmCard
				id="leave-title"
				title={t('members.leaveQuestion', { organization: organizationName })}
				description={t('members.leaveHint')}
				keep={{ to: HERE, label: t('members.stay') }}
			>
				<AppForm method="post" action={HERE}>
					<input type="hidden" name="intent" value="leave" />
					<Button type="submit" variant="destructive">
						{t('members.leaveConfirm')}
					</Button>
				</AppForm>
			</ConfirmCard>
		)
	}
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('members.leave')}</h2>
				</CardTitle>
				<CardDescription>{t('members.leaveHint')}</CardDescription>
			</CardHeader>
			<CardContent>
				<Button asChild variant="outline">
					<Link to={LEAVE_QUESTION}>{t('members.leave')}</Link>
				</Button>
			</CardContent>
		</Card>
	)
}

function DangerZone({ error }: { error: 'wrongPhrase' | undefined }) {
	const { t } = useTranslation('settings')
	const hydrated = useHydrated()
	const [typed, setTyped] = useState('')
	return (
		<Card className="border-destructive/50">
			<CardHeader>
				<CardTitle>
					<h2 className="text-destructive">{t('danger.title')}</h2>
				</CardTitle>
			</CardHeader>
			<CardContent>
				<details open={Boolean(error)}>
					<summary className="cursor-pointer text-sm font-medium">{t('danger.summary')}</summary>
					<AppForm method="post" className="mt-4 grid gap-4">
						<input type="hidden" name="intent" value="delete" />
						<p className="text-sm text-muted-foreground">{t('danger.warning')}</p>
						<Field label={t('danger.confirmLabel', { phrase: DELETE_PHRASE })} htmlFor="delete-confirmation" errorId="delete-error" error={error ? t(`danger.${error}`) : undefined}>
							<Input
								id="delete-confirmation"
								name="confirmation"
								autoComplete="off"
								value={typed}
								onChange={(e) => setTyped(e.currentTarget.value)}
								aria-invalid={error ? true : undefined}
								aria-describedby={error ? 'delete-error' : undefined}
							/>
						</Field>
						{/* Without JavaScript the button stays enabled; the server checks the phrase. */}
						<Button type="submit" variant="destructive" className="w-fit" disabled={hydrated && typed !== DELETE_PHRASE}>
							{t('danger.delete')}
						</Button>
					</AppForm>
				</details>
			</CardContent>
		</Card>
	)
}
