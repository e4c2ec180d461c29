import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { HANDLE_KINDS, paymentHandlesSchema, zelleShown, type HandleKind, type PaymentHandles } from '#app/lib/schemas/payment-handles.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { firstError } from './field-error.ts'

/** How each handle is shown to people who read it: the app's own way of writing it. */
function shown(kind: HandleKind, value: string) {
	if (kind === 'zelle') return zelleShown(value)
	if (kind === 'venmo') return `@${value}`
	if (kind === 'cashapp') return `$${value}`
	return `paypal.me/${value}`
}

/**
 * "Getting paid" on Settings › Organization (docs/product.md, Deposits and prepayment): where
 * visitors send the deposits the services ask (Zelle, Venmo, Cash App, PayPal.me), as the
 * booked page and the booking mail list them. Owners edit them; the other members read them. Each handle is optional; what is typed is normalised (an @ or $ dropped, a
 * pasted link reduced to its name, a phone number to its ten digits).
 */
export function GettingPaidCard({
	handles,
	editable,
	lastResult,
}: {
	handles: PaymentHandles
	editable: boolean
	lastResult: Parameters<typeof useForm>[0]['lastResult']
}) {
	const { t } = useTranslation('settings')
	const [form, fields] = useForm({
		id: 'payment-handles',
		lastResult,
		constraint: getZodConstraint(paymentHandlesSchema),
		defaultValue: {
			zelle: handles.zelle ? zelleShown(handles.zelle) : '',
			venmo: handles.venmo ?? '',
			cashapp: handles.cashapp ?? '',
			paypal: handles.paypal ?? '',
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: paymentHandlesSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	return (
		<Card id="getting-paid">
			<CardHeader>
				<CardTitle>
					<h2>{t('gettingPaid.title')}</h2>
				</CardTitle>
				<CardDescription>{t('gettingPaid.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				{editable ? (
					<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
						<input type="hidden" name="intent" value="payment-handles" />
						{HANDLE_KINDS.map((kind) => {
							const field = fields[kind]
							const error = firstError(field.errors)
							return (
								<Field
									key={kind}
									label={t(`gettingPaid.fields.${kind}`)}
									htmlFor={field.id}
									errorId={field.errorId}
									error={error ? t(`errors.${error}`) : undefined}
								>
									<Input
										{...getInputProps(field, { type: 'text' })}
										placeholder={t(`gettingPaid.placeholders.${kind}`)}
										autoComplete="off"
										spellCheck={false}
									/>
								</Field>
							)
						})}
						<p className="text-xs text-muted-foreground">{t('gettingPaid.hint')}</p>
						<SubmitButton
							intent="payment-handles"
							label={t('gettingPaid.save')}
							pendingLabel={t('organization.saving')}
							className="w-fit"
						/>
					</AppForm>
				) : (
					<div className="grid gap-3">
						<dl className="grid gap-2 text-sm">
							{HANDLE_KINDS.map((kind) => (
								<div key={kind} className="grid grid-cols-[8rem_1fr] gap-2">
									<dt className="text-muted-foreground">{t(`gettingPaid.fields.${kind}`)}</dt>
									<dd className="break-all">{handles[kind] ? shown(kind, handles[kind]) : t('gettingPaid.notSet')}</dd>
								</div>
							))}
						</dl>
						<p className="text-xs text-muted-foreground">{t('gettingPaid.readOnly')}</p>
					</div>
				)}
			</CardContent>
		</Card>
	)
}
