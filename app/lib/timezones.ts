/**
 * The zones the public booking page offers for showing times (docs/product.md, Public booking):
 * one or two per region, so the select stays small; the organization's zone and the one in the
 * address are added when missing. Any IANA name the runtime knows is accepted in the address.
 */
export const DISPLAY_TIMEZONES = [
	'UTC',
	'Pacific/Honolulu',
	'America/Anchorage',
	'America/Los_Angeles',
	'America/Denver',
	'America/Phoenix',
	'America/Chicago',
	'America/Mexico_City',
	'America/New_York',
	'America/Bogota',
	'America/Lima',
	'America/Caracas',
	'America/Halifax',
	'America/Santiago',
	'America/Argentina/Buenos_Aires',
	'America/Sao_Paulo',
	'Atlantic/Azores',
	'Europe/London',
	'Europe/Lisbon',
	'Europe/Madrid',
	'Europe/Paris',
	'Europe/Berlin',
	'Europe/Athens',
	'Europe/Istanbul',
	'Europe/Moscow',
	'Africa/Lagos',
	'Africa/Cairo',
	'Africa/Johannesburg',
	'Asia/Dubai',
	'Asia/Karachi',
	'Asia/Kolkata',
	'Asia/Dhaka',
	'Asia/Bangkok',
	'Asia/Singapore',
	'Asia/Shanghai',
	'Asia/Manila',
	'Asia/Tokyo',
	'Asia/Seoul',
	'Australia/Perth',
	'Australia/Adelaide',
	'Australia/Sydney',
	'Pacific/Auckland',
] as const

export function displayZones(...extra: string[]): string[] {
	const zones: string[] = [...DISPLAY_TIMEZONES]
	for (const zone of extra) if (zone && !zones.includes(zone)) zones.unshift(zone)
	return zones
}

/**
 * The zones an organization can work in ("today", report ranges, new rows, booking times), set in
 * Settings › Organization or in the booking settings: the same list, which the database's check
 * on booking_settings.timezone repeats.
 */
export const ORGANIZATION_TIMEZONES = DISPLAY_TIMEZONES
