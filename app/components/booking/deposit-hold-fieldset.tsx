import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import { Link } from '#app/components/link.tsx'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { HOLD_LIMITS, HOLD_UNITS } from '#app/lib/schemas/booking.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { GETTING_PAID_HREF } from './service-deposit.tsx'

/** The form's default values for the hold: whole hours when the minutes make some, else minutes. */
export function depositHoldDefaults(settings: { depositHoldMinutes: number; depositHoldBeforeStartMinutes: number | null }) {
	const inHours = settings.depositHoldMinutes % 60 === 0
	return {
		depositHold: String(inHours ? settings.depositHoldMinutes / 60 : settings.depositHoldMinutes),
		depositHoldUnit: inHours ? 'hours' : 'minutes',
		depositHoldBeforeStartHours:
			settings.depositHoldBeforeStartMinutes === null ? undefined : String(Math.ceil(settings.depositHoldBeforeStartMinutes / 60)),
	}
}

/**
 * The booking settings' deposits part (docs/product.md, Deposits and prepayment): how long a
 * booking waiting for its deposit holds its slot ("Hold an unpaid booking for" N minutes or
 * hours, "until at most N hours before the start", optional), and where the services' deposits
 * and the organization's payment handles are set. Error keys are under booking:errors.
 */
export function DepositHoldFieldset({
	hold,
	unit,
	beforeStart,
	error,
}: {
	hold: FieldMetadata<number | undefined>
	unit: FieldMetadata<string | undefined>
	beforeStart: FieldMetadata<number | undefined>
	error: (field: FieldMetadata<unknown>) => string | undefined
}) {
	const { t } = useTranslation('booking')
	const holdError = error(hold) ?? error(unit)
	const beforeError = error(beforeStart)
	return (
		<fieldset className="grid min-w-0 gap-4 rounded-md border p-4">
			<legend className="px-1 text-sm font-medium">{t('settings.deposits.title')}</legend>
			<p className="text-xs text-muted-foreground">
				{t('settings.deposits.description')}{' '}
				<Link to="/app/booking/services" className="underline underline-offset-2">
					{t('settings.deposits.servicesLink')}
				</Link>{' '}
				·{' '}
				<Link to={GETTING_PAID_HREF} className="underline underline-offset-2">
					{t('settings.deposits.handlesLink')}
				</Link>
			</p>
			<div className="grid gap-4 sm:grid-cols-2">
				<div className="grid gap-2">
					<Label htmlFor={hold.id}>{t('settings.deposits.hold')}</Label>
					<div className="flex gap-2">
						<Input
							{...getInputProps(hold, { type: 'number' })}
							min={1}
							max={HOLD_LIMITS.maxMinutes}
							step={1}
							inputMode="numeric"
							className="w-28"
						/>
						<NativeSelect {...getSelectProps(unit)} aria-label={t('settings.deposits.unit')} className="w-32">
							{HOLD_UNITS.map((u) => (
								<option key={u} value={u}>
									{t(`settings.deposits.units.${u}`)}
								</option>
							))}
						</NativeSelect>
					</div>
					{holdError ? (
						<p id={hold.errorId} className="text-sm text-destructive">
							{holdError}
						</p>
					) : null}
					<p className="text-xs text-muted-foreground">{t('settings.deposits.holdHint')}</p>
				</div>
				<div className="grid gap-2">
					<Label htmlFor={beforeStart.id}>{t('settings.deposits.beforeStart')}</Label>
					<Input
						{...getInputProps(beforeStart, { type: 'number' })}
						min={0}
						max={HOLD_LIMITS.maxBeforeStartHours}
						step={1}
						inputMode="numeric"
						className="w-28"
					/>
					{beforeError ? (
						<p id={beforeStart.errorId} className="text-sm text-destructive">
							{beforeError}
						</p>
					) : null}
					<p className="text-xs text-muted-foreground">{t('settings.deposits.beforeStartHint')}</p>
				</div>
			</div>
		</fieldset>
	)
}
