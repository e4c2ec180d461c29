import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, useLocation } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { z } from 'zod'
import { refuseNonOwner, requireRole } from '#app/.server/auth/session.ts'
import {
	changeRole,
	inviteMember,
	listInvitations,
	listMembers,
	removeMember,
	revokeInvitation,
} from '#app/.server/organizations/members.ts'
import { allowEvent } from '#app/.server/rate-limit.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { dateIn } from '#app/lib/dates.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { grantableRoles, MEMBER_MANAGERS, mayHandle, ROLES, type Role } from '#app/lib/roles.ts'
import { inviteSchema } from '#app/lib/schemas/settings.ts'
import { firstError } from '#app/components/settings/field-error.ts'
import { LEAVE_QUESTION } from '#app/components/settings/leave-card.tsx'
import type { Route } from './+types/members'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

const HERE = '/app/settings/members'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireRole(context, ...MEMBER_MANAGERS)
	const [members, listed] = await Promise.all([listMembers(user.userId, organization.id), listInvitations(organization.id)])
	// An invitation's expiry day in the organization's timezone, as every date on the screens.
	const invitations = listed.map((i) => ({ ...i, expiresAt: dateIn(organization.timezone, new Date(i.expiresAt)) }))
	// ?remove= asks before removing a colleague (a page of its own, so it works without JavaScript).
	const removeId = new URL(request.url).searchParams.get('remove')
	// Not oneself: leaving asks on the organization tab.
	const removing = members.find((m) => m.userId === removeId && m.userId !== user.userId && mayHandle(organization.role, m.role)) ?? null
	return { members, invitations, me: user.userId, myRole: organization.role, organizationName: organization.name, removing }
}

const rowSchema = z.object({ userId: z.uuid(), role: z.enum(ROLES).optional() })

const CHANGE_ERRORS = {
	not_owner: 'ownerOnly',
	last_owner: 'lastOwner',
	not_found: 'notFound',
	already_member: 'alreadyMember',
	already_invited: 'alreadyInvited',
} as const

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireRole(context, ...MEMBER_MANAGERS)
	const formData = await request.formData()
	const actor = { userId: user.userId, role: organization.role }
	const refused = (code: keyof typeof CHANGE_ERRORS) => {
		if (code === 'not_owner') refuseNonOwner()
		if (code === 'not_found') return errorResponse(404, 'notFound')
		return redirectWithToast(HERE, { type: 'error', title: `settings:errors.${CHANGE_ERRORS[code]}` })
	}
	switch (formData.get('intent')) {
		case 'invite': {
			const submission = parseWithZod(formData, { schema: inviteSchema })
			if (submission.status !== 'success') return data({ invite: submission.reply() }, { status: 400 })
			// Invitations send mail to any address: a limit per inviter (app/.server/rate-limit.ts).
			if (!(await allowEvent('invite', user.userId))) {
				return data({ invite: submission.reply({ fieldErrors: { email: ['tooManyAttempts'] } }) }, { status: 429 })
			}
			const result = await inviteMember(
				{ ...actor, name: user.fullName || user.email, language: user.preferredLanguage },
				{ id: organization.id, name: organization.name },
				submission.value.email,
				submission.value.role,
			)
			if (!result.ok) {
				if (result.code === 'already_member' || result.code === 'already_invited') {
					return data({ invite: submission.reply({ fieldErrors: { email: [CHANGE_ERRORS[result.code]] } }) }, { status: 400 })
				}
				return refused(result.code)
			}
			// Pending whether or not the address has an account: the invitee accepts through the link.
			return redirectWithToast(HERE, { type: 'success', title: 'settings:members.invite.sent', values: { email: submission.value.email } })
		}
		case 'role': {
			const parsed = rowSchema.safeParse(Object.fromEntries(formData))
			if (!parsed.success || !parsed.data.role) return errorResponse(400, 'badRequest')
			const result = await changeRole(actor, organization.id, parsed.data.userId, parsed.data.role)
			if (!result.ok) return refused(result.code)
			return redirectWithToast(HERE, { type: 'success', title: 'settings:members.roleChanged' })
		}
		case 'remove': {
			const parsed = rowSchema.safeParse(Object.fromEntries(formData))
			if (!parsed.success) return errorResponse(400, 'badRequest')
			const result = await removeMember(actor, organization.id, parsed.data.userId)
			if (!result.ok) return refused(result.code)
			if (parsed.data.userId === user.userId)
				return redirectWithToast('/app/dashboard', { type: 'success', title: 'settings:members.left' })
			return redirectWithToast(HERE, { type: 'success', title: 'settings:members.removed' })
		}
		case 'revoke': {
			const id = z.uuid().safeParse(formData.get('invitationId'))
			if (!id.success) return errorResponse(400, 'badRequest')
			await revokeInvitation(organization.id, id.data)
			return redirectWithToast(HERE, { type: 'success', title: 'settings:members.invite.revoked' })
		}
		default:
			return errorResponse(400, 'badRequest')
	}
}

export default function MembersTab({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('settings')
	const { t: tc } = useTranslation()
	const { members, invitations, me, myRole } = loaderData
	const location = useLocation()
	const grantable = grantableRoles(myRole)
	return (
		<div className="grid grid-cols-1 gap-6">
			{loaderData.removing ? <ConfirmRemove member={loaderData.removing} organization={loaderData.organizationName} /> : null}
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('members.title')}</h2>
					</CardTitle>
					<CardDescription>{t('members.description', { name: loaderData.organizationName })}</CardDescription>
				</CardHeader>
				<CardContent>
					<Table cards={[t('members.columns.member'), t('members.columns.email'), t('members.columns.role'), null]}>
						<TableHeader>
							<TableRow>
								<TableHead>{t('members.columns.member')}</TableHead>
								<TableHead>{t('members.columns.email')}</TableHead>
								<TableHead>{t('members.columns.role')}</TableHead>
								<TableHead>{t('members.columns.actions')}</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{members.map((m) => {
								const name = m.fullName || m.email || '—'
								const editable = mayHandle(myRole, m.role)
								return (
									<TableRow key={m.userId} data-testid="member-row">
										<TableCell className="card-title">
											<div className="flex items-center gap-2">
												{m.avatarUrl ? (
													<img src={m.avatarUrl} alt="" width={28} height={28} className="size-7 rounded-full object-cover" />
												) : (
													<span
														aria-hidden="true"
														className="flex size-7 items-center justify-center rounded-full bg-muted text-xs font-semibold"
													>
														{name.slice(0, 1).toUpperCase()}
													</span>
												)}
												<span>
													{name}
													{m.userId === me ? <span className="text-muted-foreground"> ({t('members.you')})</span> : null}
												</span>
											</div>
										</TableCell>
										<TableCell className="card-wide">{m.email}</TableCell>
										<TableCell className="card-subtitle">
											<Badge variant={m.role === 'owner' ? 'default' : 'secondary'}>{tc(`roles.${m.role}`)}</Badge>
										</TableCell>
										<TableCell className={editable ? 'card-actions' : 'card-hidden'}>
											{editable ? (
												<div className="flex flex-wrap items-center gap-2">
													{/* Remade after each answer: a refused role goes back to the saved one. */}
													<AppForm key={`${m.role}:${location.key}`} method="post" className="flex items-center gap-2">
														<input type="hidden" name="intent" value="role" />
														<input type="hidden" name="userId" value={m.userId} />
														<select
															name="role"
															defaultValue={m.role}
															aria-label={t('members.roleOf', { name })}
															className="h-8 rounded-md border border-input bg-transparent px-2 text-sm"
														>
															{grantable.map((r) => (
																<option key={r} value={r}>
																	{tc(`roles.${r}`)}
																</option>
															))}
														</select>
														<Button type="submit" size="sm" variant="outline">
															{t('members.save')}
														</Button>
													</AppForm>
													{m.userId === me ? (
														// Leaving asks first, on the organization tab.
														<Button asChild size="sm" variant="ghost">
															<Link to={LEAVE_QUESTION}>{t('members.leave')}</Link>
														</Button>
													) : (
														<Button asChild size="sm" variant="ghost">
															<Link
																to={`${HERE}?${new URLSearchParams({ remove: m.userId })}`}
																aria-label={t('members.removeOf', { name })}
															>
																{t('members.remove')}
															</Link>
														</Button>
													)}
												</div>
											) : null}
										</TableCell>
									</TableRow>
								)
							})}
						</TableBody>
					</Table>
				</CardContent>
			</Card>
			{/* A new page after each answer: the fields show what was saved, not what was typed. */}
			<InviteCard
				key={location.key}
				grantable={grantable}
				invitations={invitations}
				lastResult={actionData && 'invite' in actionData ? actionData.invite : undefined}
			/>
		</div>
	)
}

function InviteCard({
	grantable,
	invitations,
	lastResult,
}: {
	grantable: readonly Role[]
	invitations: Route.ComponentProps['loaderData']['invitations']
	lastResult: Parameters<typeof useForm>[0]['lastResult']
}) {
	const fmt = useFormat()
	const { t } = useTranslation('settings')
	const { t: tc } = useTranslation()
	const [form, fields] = useForm({
		id: 'invite',
		lastResult,
		constraint: getZodConstraint(inviteSchema),
		defaultValue: { role: 'member' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('members.invite.title')}</h2>
				</CardTitle>
			</CardHeader>
			<CardContent className="grid gap-6">
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end">
					<input type="hidden" name="intent" value="invite" />
					<Field
						label={t('members.invite.email')}
						htmlFor={fields.email.id}
						errorId={fields.email.errorId}
						error={firstError(fields.email.errors) ? t(`errors.${firstError(fields.email.errors)}`) : undefined}
					>
						<Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="off" />
					</Field>
					<Field label={t('members.invite.role')} htmlFor={fields.role.id}>
						<select {...getSelectProps(fields.role)} className="h-9 rounded-md border border-input bg-transparent px-3 text-sm">
							{grantable.map((r) => (
								<option key={r} value={r}>
									{tc(`roles.${r}`)}
								</option>
							))}
						</select>
					</Field>
					<SubmitButton intent="invite" label={t('members.invite.send')} pendingLabel={t('email.sending')} />
				</AppForm>
				{invitations.length > 0 ? (
					<div className="grid gap-2">
						<h3 className="text-sm font-medium">{t('members.invite.pending')}</h3>
						<ul className="grid gap-2">
							{invitations.map((i) => (
								<li key={i.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2 text-sm">
									<span>
										{i.email} · {tc(`roles.${i.role}`)} ·{' '}
										<span className="text-muted-foreground">{t('members.invite.expires', { date: fmt.date(i.expiresAt) })}</span>
									</span>
									<AppForm method="post">
										<input type="hidden" name="intent" value="revoke" />
										<input type="hidden" name="invitationId" value={i.id} />
										<Button type="submit" size="sm" variant="ghost">
											{t('members.invite.revoke')}
										</Button>
									</AppForm>
								</li>
							))}
						</ul>
					</div>
				) : null}
			</CardContent>
		</Card>
	)
}

function ConfirmRemove({
	member,
	organization,
}: {
	member: { userId: string; fullName: string | null; email: string | null }
	organization: string
}) {
	const { t } = useTranslation('settings')
	return (
		<ConfirmCard
			id="remove-title"
			title={t('members.removeQuestion', { name: member.fullName || member.email, organization })}
			description={t('members.removeHint')}
			keep={{ to: HERE, label: t('members.keep') }}
		>
			<AppForm method="post" action={HERE}>
				<input type="hidden" name="intent" value="remove" />
				<input type="hidden" name="userId" value={member.userId} />
				<Button type="submit" variant="destructive">
					{t('members.removeConfirm')}
				</Button>
			</AppForm>
		</ConfirmCard>
	)
}
