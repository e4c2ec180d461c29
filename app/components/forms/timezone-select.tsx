import { getSelectProps, type FieldMetadata } from '@conform-to/react'
import { ORGANIZATION_TIMEZONES } from '#app/lib/timezones.ts'

/**
 * The organization's timezone, one of ORGANIZATION_TIMEZONES: Settings › Organization and the
 * booking settings edit the same value. `hintId` names a hint beside the field's error.
 */
export function TimezoneSelect({
	field,
	hintId,
}: {
	field: FieldMetadata<string | undefined, Record<string, unknown>, unknown>
	hintId?: string
}) {
	const props = getSelectProps(field)
	const describedBy = [props['aria-describedby'], hintId].filter(Boolean).join(' ')
	return (
		<select
			{...props}
			aria-describedby={describedBy || undefined}
			className="h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs sm:w-72"
		>
			{ORGANIZATION_TIMEZONES.map((tz) => (
				<option key={tz} value={tz}>
					{tz}
				</option>
			))}
		</select>
	)
}
