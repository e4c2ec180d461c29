import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { StoreIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { editableAmount } from '#app/lib/format.ts'
import { MODULES } from '#app/lib/modules.ts'
import { automationSchema } from '#app/lib/schemas/report-automation.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

type Settings = {
	weeklyReport: boolean
	monthlyReport: boolean
	recipients: string[]
	revenueThreshold: string | null
	dormantWeeks: number | null
}
type Member = { userId: string; name: string; email: string | null }

/**
 * The Automation form (docs/product.md, Reports › Automation): which reports are mailed (weekly on
 * Mondays, monthly on the 1st, at 08:00 in the organization's zone), to which members, and the two
 * alerts (empty: off). One plain form that works without JavaScript; owners and administrators
 * save it, the others read it.
 */
export function AutomationForm({
	settings,
	members,
	canEdit,
	result,
}: {
	settings: Settings
	members: Member[]
	canEdit: boolean
	result: SubmissionResult<string[]> | undefined
}) {
	const { t, i18n } = useTranslation('automation')
	const schema = automationSchema.in(i18n.language)
	const [form, fields] = useForm({
		id: 'report-automation',
		lastResult: result,
		defaultValue: {
			weeklyReport: settings.weeklyReport ? 'on' : undefined,
			monthlyReport: settings.monthlyReport ? 'on' : undefined,
			recipients: settings.recipients,
			revenueThreshold: settings.revenueThreshold ? editableAmount(settings.revenueThreshold, i18n.language) : '',
			dormantWeeks: settings.dormantWeeks ? String(settings.dormantWeeks) : '',
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const error = (errors: string[] | undefined) => (errors?.length ? t(`errors.${errors[0]}`) : undefined)
	// The members checked: as last submitted when the form comes back with an error (without JavaScript too), else as saved.
	const chosen = new Set([fields.recipients.initialValue ?? []].flat().filter((v): v is string => typeof v === 'string'))
	return (
		<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-6">
			<input type="hidden" name="intent" value="save" />
			{canEdit ? null : <p className="text-sm text-muted-foreground">{t('readOnly')}</p>}
			<fieldset disabled={!canEdit} className="grid gap-6">
				<legend className="sr-only">{t('title')}</legend>
				<Card>
					<CardHeader>
						<CardTitle>
							<h2>{t('reports.title')}</h2>
						</CardTitle>
						<CardDescription>{t('reports.description')}</CardDescription>
					</CardHeader>
					<CardContent className="grid gap-3">
						<div className="flex items-center gap-2">
							<input {...getInputProps(fields.weeklyReport, { type: 'checkbox' })} className="size-4" />
							<Label htmlFor={fields.weeklyReport.id}>{t('reports.weekly')}</Label>
						</div>
						<div className="flex items-center gap-2">
							<input {...getInputProps(fields.monthlyReport, { type: 'checkbox' })} className="size-4" />
							<Label htmlFor={fields.monthlyReport.id}>{t('reports.monthly')}</Label>
						</div>
					</CardContent>
				</Card>
				<Card>
					<CardHeader>
						<CardTitle>
							<h2 id="automation-recipients">{t('recipients.title')}</h2>
						</CardTitle>
						<CardDescription>{t('recipients.description')}</CardDescription>
					</CardHeader>
					<CardContent className="grid gap-3">
						<fieldset aria-labelledby="automation-recipients" aria-describedby={fields.recipients.errorId} className="grid gap-2">
							{members.map((member) => (
								<div key={member.userId} className="flex items-center gap-2">
									<input
										type="checkbox"
										id={`recipient-${member.userId}`}
										name={fields.recipients.name}
										value={member.userId}
										defaultChecked={chosen.has(member.userId)}
										className="size-4"
									/>
									<Label htmlFor={`recipient-${member.userId}`}>
										{member.name}
										{member.email && member.email !== member.name ? <span className="text-muted-foreground"> · {member.email}</span> : null}
									</Label>
								</div>
							))}
						</fieldset>
						{fields.recipients.errors?.length ? (
							<p id={fields.recipients.errorId} className="text-sm text-destructive">
								{error(fields.recipients.errors)}
							</p>
						) : null}
					</CardContent>
				</Card>
				<Card>
					<CardHeader>
						<CardTitle>
							<h2>{t('alerts.title')}</h2>
						</CardTitle>
						<CardDescription>{t('alerts.description')}</CardDescription>
					</CardHeader>
					<CardContent className="grid gap-4 sm:grid-cols-2">
						<Field
							label={t('alerts.revenue')}
							htmlFor={fields.revenueThreshold.id}
							errorId={fields.revenueThreshold.errorId}
							error={error(fields.revenueThreshold.errors)}
						>
							<Input
								{...getInputProps(fields.revenueThreshold, { type: 'text' })}
								inputMode="decimal"
								aria-describedby={`${fields.revenueThreshold.id}-hint ${fields.revenueThreshold.errorId}`}
							/>
							<p id={`${fields.revenueThreshold.id}-hint`} className="text-xs text-muted-foreground">
								{t('alerts.revenueHint')}
							</p>
						</Field>
						<Field
							label={t('alerts.dormant')}
							htmlFor={fields.dormantWeeks.id}
							errorId={fields.dormantWeeks.errorId}
							error={error(fields.dormantWeeks.errors)}
						>
							<Input
								{...getInputProps(fields.dormantWeeks, { type: 'text' })}
								inputMode="numeric"
								aria-describedby={`${fields.dormantWeeks.id}-hint ${fields.dormantWeeks.errorId}`}
							/>
							<p id={`${fields.dormantWeeks.id}-hint`} className="text-xs text-muted-foreground">
								{t('alerts.dormantHint')}
							</p>
						</Field>
					</CardContent>
				</Card>
			</fieldset>
			{canEdit ? <SubmitButton label={t('save')} pendingLabel={t('saving')} intent="save" className="w-fit" /> : null}
		</AppForm>
	)
}

/** What the Automation screen shows without the upgrade: what it would do, and the way to the marketplace. */
export function AutomationNotActive() {
	const { t } = useTranslation('automation')
	return (
		<Card data-testid="automation-inactive">
			<CardHeader>
				<CardTitle>
					<h2>{t('inactive.title')}</h2>
				</CardTitle>
				<CardDescription>{t('inactive.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<Button asChild>
					<Link to={`/app/modules/${MODULES.reports.id}`}>
						<StoreIcon aria-hidden="true" />
						{t('inactive.action')}
					</Link>
				</Button>
			</CardContent>
		</Card>
	)
}
