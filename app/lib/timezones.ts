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

// City names that differ from the zone id's last part (accents, or a translated name).
const CITY_NAMES: Record<string, Partial<Record<string, string>> & { en: string }> = {
	'America/Sao_Paulo': { en: 'São Paulo' },
	'America/Bogota': { en: 'Bogotá' },
	'America/New_York': { en: 'New York', es: 'Nueva York', 'pt-BR': 'Nova York' },
	'America/Mexico_City': { en: 'Mexico City', es: 'Ciudad de México', 'pt-BR': 'Cidade do México' },
	'America/Argentina/Buenos_Aires': { en: 'Buenos Aires' },
	'Atlantic/Azores': { en: 'Azores', es: 'Azores', 'pt-BR': 'Açores' },
	'Europe/London': { en: 'London', es: 'Londres', 'pt-BR': 'Londres' },
	'Europe/Lisbon': { en: 'Lisbon', es: 'Lisboa', 'pt-BR': 'Lisboa' },
	'Europe/Paris': { en: 'Paris', es: 'París' },
	'Europe/Berlin': { en: 'Berlin', es: 'Berlín', 'pt-BR': 'Berlim' },
	'Europe/Athens': { en: 'Athens', es: 'Atenas', 'pt-BR': 'Atenas' },
	'Europe/Istanbul': { en: 'Istanbul', es: 'Estambul', 'pt-BR': 'Istambul' },
	'Europe/Moscow': { en: 'Moscow', es: 'Moscú', 'pt-BR': 'Moscou' },
	'Africa/Cairo': { en: 'Cairo', es: 'El Cairo' },
	'Africa/Johannesburg': { en: 'Johannesburg', es: 'Johannesburgo', 'pt-BR': 'Joanesburgo' },
	'Asia/Dubai': { en: 'Dubai', es: 'Dubái' },
	'Asia/Karachi': { en: 'Karachi', es: 'Karachi', 'pt-BR': 'Carachi' },
	'Asia/Kolkata': { en: 'Kolkata', es: 'Calcuta', 'pt-BR': 'Calcutá' },
	'Asia/Dhaka': { en: 'Dhaka', es: 'Daca', 'pt-BR': 'Daca' },
	'Asia/Bangkok': { en: 'Bangkok', es: 'Bangkok', 'pt-BR': 'Bangcoc' },
	'Asia/Singapore': { en: 'Singapore', es: 'Singapur', 'pt-BR': 'Singapura' },
	'Asia/Shanghai': { en: 'Shanghai', es: 'Shanghái', 'pt-BR': 'Xangai' },
	'Asia/Manila': { en: 'Manila' },
	'Asia/Tokyo': { en: 'Tokyo', es: 'Tokio', 'pt-BR': 'Tóquio' },
	'Asia/Seoul': { en: 'Seoul', es: 'Seúl', 'pt-BR': 'Seul' },
	'Pacific/Honolulu': { en: 'Honolulu' },
	'America/Halifax': { en: 'Halifax' },
}

function cityName(zone: string, language: string): string {
	const names = CITY_NAMES[zone]
	if (names) return names[language] ?? names.en
	return (zone.split('/').pop() ?? zone).replaceAll('_', ' ')
}

/**
 * A zone named in words in the reader's language, the way people say it: "Pacific Time (Los
 * Angeles)", "hora del Pacífico (Los Angeles)", "Horário Padrão de Brasília (São Paulo)"; UTC by its
 * long name. The runtime's CLDR data gives the generic name; the city tells two zones of one name
 * apart (Denver and Phoenix). An id the runtime does not know is returned as it is.
 */
export function zoneLabel(zone: string, language: string, at: Date = new Date()): string {
	try {
		if (zone === 'UTC') return zoneNamePart(zone, language, 'long', at)
		return `${zoneNamePart(zone, language, 'longGeneric', at)} (${cityName(zone, language)})`
	} catch {
		return zone
	}
}

function zoneNamePart(zone: string, language: string, style: 'long' | 'longGeneric', at: Date): string {
	const parts = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: style }).formatToParts(at)
	const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? zone
	return name.charAt(0).toLocaleUpperCase(language) + name.slice(1)
}
