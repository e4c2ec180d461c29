import { getSelectProps, type FieldMetadata } from '@conform-to/react'
import { useSyncExternalStore } from 'react'
import { zoneName } from '#app/lib/format.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { ORGANIZATION_TIMEZONES } from '#app/lib/timezones.ts'

export const SELECT_CLASS = 'h-11 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs sm:h-9 sm:w-72'

/** The organization's zones, each named in words in the interface language ("Pacific Time (Los Angeles)"). */
export function ZoneOptions() {
	const { lng } = useFormat()
	return ORGANIZATION_TIMEZONES.map((tz) => (
		<option key={tz} value={tz}>
			{zoneName(tz, lng)}
		</option>
	))
}

/**
 * The organization's timezone, one of ORGANIZATION_TIMEZONES, named in words in the interface
 * language: Settings › Organization and the booking settings edit the same value. `hintId` names
 * a hint beside the field's error.
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
		<select {...props} aria-describedby={describedBy || undefined} className={SELECT_CLASS}>
			<ZoneOptions />
		</select>
	)
}

/** The zone a new organization most likely works in, guessed from the language it signs up in (when the browser does not say). */
export const LANGUAGE_ZONE_GUESS: Record<string, (typeof ORGANIZATION_TIMEZONES)[number]> = {
	en: 'America/New_York',
	es: 'America/Mexico_City',
	'pt-BR': 'America/Sao_Paulo',
}

/** The browser's own zone when it is one an organization can work in, else null. */
function ownZone() {
	try {
		const own = Intl.DateTimeFormat().resolvedOptions().timeZone
		return (ORGANIZATION_TIMEZONES as readonly string[]).includes(own) ? own : null
	} catch {
		return null
	}
}

const noSubscription = () => () => {}

/** The browser's zone (`ownZone`) once the page's script runs; null on the server and while hydrating, so both render alike. */
export function useBrowserZone() {
	return useSyncExternalStore(noSubscription, ownZone, () => null)
}

/**
 * A new organization's zone on the sign-up and onboarding forms (docs/product.md, Sign-up): the
 * browser's, sent in a hidden `timezone` field once the page's script runs; without JavaScript,
 * or when the browser's zone is not one of the list, asked with a select of zones in words,
 * the language's guess (or the value posted before) preselected. The server validates it.
 */
export function NewOrganizationZone({ label, defaultValue, error }: { label: string; defaultValue?: string | null; error?: string }) {
	const { lng } = useFormat()
	const browser = useBrowserZone()
	const errorId = 'timezone-error'
	if (browser && !error) return <input type="hidden" name="timezone" value={browser} />
	const initial =
		defaultValue && (ORGANIZATION_TIMEZONES as readonly string[]).includes(defaultValue)
			? defaultValue
			: (LANGUAGE_ZONE_GUESS[lng] ?? 'UTC')
	return (
		<div className="grid gap-2">
			<label htmlFor="timezone" className="text-sm leading-none font-medium">
				{label}
			</label>
			<select
				id="timezone"
				name="timezone"
				defaultValue={initial}
				aria-invalid={error ? true : undefined}
				aria-describedby={error ? errorId : undefined}
				className={SELECT_CLASS}
			>
				<ZoneOptions />
			</select>
			{error ? (
				<p id={errorId} className="text-sm text-destructive">
					{error}
				</p>
			) : null}
		</div>
	)
}
