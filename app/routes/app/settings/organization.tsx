import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { refuseNonOwner, requireMember, requireOwner } from '#app/.server/auth/session.ts'
import { publicBookingUrl } from '#app/.server/booking/staff.ts'
import { pictureRefusalKey } from '#app/.server/images.ts'
import { logError } from '#app/.server/log.ts'
import type { CurrentMember } from '#app/.server/organizations/current.ts'
import { removeMember } from '#app/.server/organizations/members.ts'
import { getPaymentHandles, mayEditHandles, savePaymentHandles } from '#app/.server/payments/handles.ts'
import {
	deleteOrganization,
	getOrganizationSettings,
	removeLogo,
	saveBrandColors,
	setLogo,
	updateOrganization,
} from '#app/.server/organizations/settings.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { BrandingCard } from '#app/components/settings/branding-card.tsx'
import { DangerZone } from '#app/components/settings/danger-zone.tsx'
import { GettingPaidCard } from '#app/components/settings/getting-paid-card.tsx'
import { LeaveCard } from '#app/components/settings/leave-card.tsx'
import { OrganizationCard } from '#app/components/settings/organization-card.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { isOwner } from '#app/lib/roles.ts'
import { paymentHandlesSchema } from '#app/lib/schemas/payment-handles.ts'
import { brandingSchema, organizationSchema } from '#app/lib/schemas/settings.ts'
import type { Route } from './+types/organization'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

const HERE = '/app/settings/organization'

export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const [settings, handles] = await Promise.all([
		getOrganizationSettings(user.userId, organization.id),
		getPaymentHandles(user.userId, organization.id),
	])
	if (!settings) return errorResponse(404, 'notFound')
	return {
		settings,
		handles,
		editHandles: mayEditHandles(organization.role),
		role: organization.role,
		gears: { owned: organization.gearsOwned, remaining: organization.gearsRemaining },
		bookingUrl: publicBookingUrl(settings.slug),
	}
}

/** What each intent's handler works with. */
type Intent = Pick<CurrentMember, 'user' | 'organization'> & { formData: FormData }

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await request.formData()
	// Any member may leave, except the last owner.
	if (formData.get('intent') === 'leave') return leave(requireMember(context))
	// Every other change here is the owners' (docs/product.md, Settings): a forged post gets 403.
	const intent: Intent = { ...requireOwner(context), formData }
	switch (formData.get('intent')) {
		case 'organization':
			return saveOrganization(intent)
		case 'logo-upload':
			return uploadLogo(intent)
		case 'logo-remove':
			return deleteLogo(intent)
		case 'branding':
			return saveBranding(intent)
		case 'payment-handles':
			return saveHandles(intent)
		case 'delete':
			return deleteEverything(intent)
		default:
			return errorResponse(400, 'badRequest')
	}
}

async function leave({ user, organization }: Pick<CurrentMember, 'user' | 'organization'>) {
	const left = await removeMember({ userId: user.userId, role: organization.role }, organization.id, user.userId)
	if (!left.ok) return redirectWithToast(HERE, { type: 'error', title: 'settings:errors.lastOwner' })
	return redirectWithToast('/app/dashboard', { type: 'success', title: 'settings:members.left' })
}

/** Name, description, slug (the old one redirects for a while) and timezone. */
async function saveOrganization({ user, organization, formData }: Intent) {
	const submission = parseWithZod(formData, { schema: organizationSchema })
	if (submission.status !== 'success') return data({ organization: submission.reply() }, { status: 400 })
	const saved = await updateOrganization(user.userId, organization.id, submission.value)
	if (!saved.ok) {
		if (saved.code === 'not_found') return errorResponse(404, 'notFound')
		return data(
			{ organization: submission.reply({ fieldErrors: { slug: [saved.code === 'slug_taken' ? 'slugTaken' : 'slugInvalid'] } }) },
			{ status: 400 },
		)
	}
	return redirectWithToast(HERE, { type: 'success', title: 'settings:organization.saved' })
}

/** The avatar's path (images.ts, replacePicture): upload budget, checks, stored before recorded. */
async function uploadLogo({ user, organization, formData }: Intent) {
	const file = formData.get('logo')
	const result =
		file instanceof File && file.size > 0
			? await setLogo(user.userId, organization.id, file).catch((error: unknown) => {
					logError(error, { event: 'logo_upload_failed' })
					return null
				})
			: ({ ok: false, code: 'invalid_type' } as const)
	if (!result)
		return redirectWithToast(HERE, {
			type: 'error',
			title: 'settings:branding.logoFailed.title',
			description: 'settings:branding.logoFailed.description',
		})
	if (!result.ok) {
		if (result.code === 'not_found') return errorResponse(404, 'notFound')
		const key = pictureRefusalKey(result.code)
		return redirectWithToast(HERE, {
			type: 'error',
			title: `settings:avatar.${key}.title`,
			description: `settings:avatar.${key}.description`,
		})
	}
	return redirectWithToast(HERE, { type: 'success', title: 'settings:branding.logoUpdated' })
}

async function deleteLogo({ user, organization }: Intent) {
	await removeLogo(user.userId, organization.id)
	return redirectWithToast(HERE, { type: 'success', title: 'settings:branding.logoRemoved' })
}

/** The "Getting paid" card: the payment handles visitors send deposits to (docs/product.md, Deposits and prepayment). */
async function saveHandles({ user, organization, formData }: Intent) {
	const submission = parseWithZod(formData, { schema: paymentHandlesSchema })
	if (submission.status !== 'success') return data({ handles: submission.reply() }, { status: 400 })
	if (!(await savePaymentHandles(user.userId, organization.id, submission.value))) refuseNonOwner()
	return redirectWithToast(`${HERE}#getting-paid`, { type: 'success', title: 'settings:gettingPaid.saved' })
}

async function saveBranding({ user, organization, formData }: Intent) {
	const submission = parseWithZod(formData, { schema: brandingSchema })
	if (submission.status !== 'success') return data({ branding: submission.reply() }, { status: 400 })
	if (!(await saveBrandColors(user.userId, organization.id, submission.value))) return errorResponse(404, 'notFound')
	return redirectWithToast(HERE, { type: 'success', title: 'settings:branding.saved' })
}

/** The organization and all its data, once the phrase is typed; then the browser goes to /auth (docs/product.md, Settings). */
async function deleteEverything({ user, organization, formData }: Intent) {
	const confirmation = String(formData.get('confirmation') ?? '')
	const deleted = await deleteOrganization(user.userId, organization.id, confirmation)
	if (!deleted.ok) {
		if (deleted.code === 'not_owner') refuseNonOwner()
		return data({ deleteError: 'wrongPhrase' as const }, { status: 400 })
	}
	return redirectWithToast('/auth', { type: 'success', title: 'settings:danger.deleted' })
}

export default function OrganizationTab({ loaderData, actionData }: Route.ComponentProps) {
	const owner = isOwner(loaderData.role)
	return (
		<div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
			<div className="grid content-start gap-6">
				<OrganizationCard
					{...loaderData}
					owner={owner}
					lastResult={actionData && 'organization' in actionData ? actionData.organization : undefined}
				/>
				<GettingPaidCard
					// Saved: the form shows the values as they were kept (normalised), not as typed.
					key={Object.values(loaderData.handles).join('|')}
					handles={loaderData.handles}
					editable={loaderData.editHandles}
					lastResult={actionData && 'handles' in actionData ? actionData.handles : undefined}
				/>
			</div>
			<div className="grid content-start gap-6">
				{owner ? (
					<BrandingCard
						settings={loaderData.settings}
						lastResult={actionData && 'branding' in actionData ? actionData.branding : undefined}
					/>
				) : null}
				<LeaveCard organizationName={loaderData.settings.name} />
				{owner ? <DangerZone error={actionData && 'deleteError' in actionData ? actionData.deleteError : undefined} /> : null}
			</div>
		</div>
	)
}
