/**
 * The staff side of the booking module (docs/product.md, Booking): whether the organization
 * has it, the shareable link, and the booking settings. Every query names the organization
 * explicitly and runs as the signed-in user (RLS decides the rows).
 */
import { redirect, type RouterContextProvider } from 'react-router'
import { ACTIVE_STATUSES, STATUS_CHANGES, type AppointmentStatus, type StatusChange } from '#app/lib/appointments.ts'
import {
	clocksChangeOn,
	DEFAULT_BUSINESS_HOURS,
	offsetText,
	parseWeeklyHours,
	type AvailabilityInput,
	type WeeklyHours,
} from '#app/lib/availability.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { MODULES } from '#app/lib/modules.ts'
import { holdMinutes, type BookingSettingsValues, type DateOverrideValues } from '#app/lib/schemas/booking.ts'
import type { Role } from '#app/lib/roles.ts'
import { requireMember } from '../auth/session.ts'
import { notifyBookingChange } from './live-updates.ts'
import { asUser, dbErrorCode, sql } from '../db/index.ts'
import { mayUseModule } from '../marketplace/modules.ts'
import { publicOrigin } from '../security.ts'

/**
 * `/app/booking?orgSlug=X` is the public wizard of X (docs/product.md, Route table), signed in
 * or not: the /app layout calls this before its sign-in guard.
 */
export function publicWizardRedirect(request: Request) {
	const url = new URL(request.url)
	if (url.pathname.replace(/\/+$/, '') !== '/app/booking') return
	const slug = url.searchParams.get('orgSlug')?.trim()
	if (slug) throw redirect(`/book/${encodeURIComponent(slug)}`)
}

/** The public booking page of an organization: the site's origin plus /book/{slug}. */
export function publicBookingUrl(slug: string) {
	return `${publicOrigin()}/book/${encodeURIComponent(slug)}`
}

/**
 * Whether the member may use the booking module: `inactive` when the organization has not
 * activated it in the marketplace, `hidden` when its configured visibility is above the
 * member's role (docs/product.md, Marketplace and modules), else `usable`.
 */
export async function bookingAccess(userId: string, organizationId: string, role: Role): Promise<'inactive' | 'hidden' | 'usable'> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_modules as om')
			.innerJoin('modules as m', 'm.id', 'om.module_id')
			.select('om.default_visibility')
			.where('om.organization_id', '=', organizationId)
			.where('m.feature_type', '=', MODULES.booking.featureType)
			.executeTakeFirst(),
	)
	if (!row) return 'inactive'
	return mayUseModule(row.default_visibility, role) ? 'usable' : 'hidden'
}

export type BookingSettings = {
	minAdvanceHours: number
	maxAdvanceDays: number
	bufferMinutes: number
	autoConfirm: boolean
	allowGuestBooking: boolean
	requirePhone: boolean
	cancellationHours: number
	timezone: string
	businessHours: WeeklyHours
}

/**
 * How long an unpaid booking holds its slot (docs/product.md, Deposits and prepayment): staff
 * settings only (the matching engine reads them in SQL; the public pages never do).
 */
export type DepositHoldSettings = { depositHoldMinutes: number; depositHoldBeforeStartMinutes: number | null }

/** The organization's booking settings (one row, made with the organization). */
export async function getBookingSettings(userId: string, organizationId: string): Promise<(BookingSettings & DepositHoldSettings) | null> {
	const row = await asUser(userId, (trx) =>
		trx.selectFrom('booking_settings').selectAll().where('organization_id', '=', organizationId).executeTakeFirst(),
	)
	if (!row) return null
	return {
		minAdvanceHours: row.min_advance_hours,
		maxAdvanceDays: row.max_advance_days,
		bufferMinutes: row.buffer_minutes,
		autoConfirm: row.auto_confirm,
		allowGuestBooking: row.allow_guest_booking,
		requirePhone: row.require_phone,
		cancellationHours: row.cancellation_hours,
		timezone: row.timezone,
		businessHours: parseWeeklyHours(row.business_hours) ?? DEFAULT_BUSINESS_HOURS,
		depositHoldMinutes: row.deposit_hold_minutes,
		depositHoldBeforeStartMinutes: row.deposit_hold_before_start_minutes,
	}
}

/**
 * Saves the settings. The row exists from the organization's creation, and members may update
 * but not insert it (docs/data-model.md, Who may do what): false when there is no row to update.
 */
export async function saveBookingSettings(userId: string, organizationId: string, values: BookingSettingsValues): Promise<boolean> {
	const result = await asUser(userId, (trx) =>
		trx
			.updateTable('booking_settings')
			.set({
				min_advance_hours: values.minAdvanceHours,
				max_advance_days: values.maxAdvanceDays,
				buffer_minutes: values.bufferMinutes,
				auto_confirm: values.autoConfirm,
				allow_guest_booking: values.allowGuestBooking,
				require_phone: values.requirePhone,
				cancellation_hours: values.cancellationHours,
				timezone: values.timezone,
				business_hours: JSON.stringify(values.hours),
				deposit_hold_minutes: holdMinutes(values.depositHold, values.depositHoldUnit),
				deposit_hold_before_start_minutes:
					values.depositHoldBeforeStartHours === undefined ? null : values.depositHoldBeforeStartHours * 60,
			})
			.where('organization_id', '=', organizationId)
			.executeTakeFirst(),
	)
	return result.numUpdatedRows > 0n
}

/**
 * For the booking tabs' loaders and actions: the member, when the organization has the booking
 * module and its visibility includes the member's role; otherwise a 403 (the booking layout
 * shows why and links to the marketplace instead).
 */
export async function requireBookingMember(context: Readonly<RouterContextProvider>) {
	const member = requireMember(context)
	const access = await bookingAccess(member.user.userId, member.organization.id, member.organization.role)
	if (access !== 'usable') errorResponse(403, 'forbidden')
	return member
}

// ---------------------------------------------------------------------------------------------
// Calendar
// ---------------------------------------------------------------------------------------------

/**
 * Moves an appointment's status: 'done'; 'refused' when it does not exist here or its status
 * does not allow the change; 'notStarted' when the change waits for the appointment's start
 * (app/lib/appointments.ts).
 */
export async function changeAppointmentStatus(
	userId: string,
	organizationId: string,
	appointmentId: string,
	change: StatusChange,
	now = new Date(),
) {
	const { to, from, onceStarted } = STATUS_CHANGES[change]
	const row = await asUser(userId, (trx) =>
		trx
			.updateTable('booking_appointments')
			.set({ status: to })
			.where('organization_id', '=', organizationId)
			.where('id', '=', appointmentId)
			.where('status', 'in', [...from])
			.$if(onceStarted, (q) => q.where('starts_at', '<=', now))
			.returning('id')
			.executeTakeFirst(),
	)
	if (row) {
		notifyBookingChange(organizationId)
		return 'done'
	}
	if (!onceStarted) return 'refused'
	// Refused: say why when the only thing in the way is the start still ahead.
	const ahead = await asUser(userId, (trx) =>
		trx
			.selectFrom('booking_appointments')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('id', '=', appointmentId)
			.where('status', 'in', [...from])
			.where('starts_at', '>', now)
			.executeTakeFirst(),
	)
	return ahead ? 'notStarted' : 'refused'
}

/** The active services and providers, for the new appointment form. */
export async function getBookingChoices(userId: string, organizationId: string) {
	return asUser(userId, async (trx) => ({
		services: await trx
			.selectFrom('booking_services')
			.select(['id', 'name', 'duration_minutes as durationMinutes', 'price'])
			.where('organization_id', '=', organizationId)
			.where('is_active', '=', true)
			.orderBy('name')
			.execute(),
		providers: await trx
			.selectFrom('booking_providers')
			.select(['id', 'display_name as displayName', 'business_hours as businessHours'])
			.where('organization_id', '=', organizationId)
			.where('is_active', '=', true)
			.orderBy('display_name')
			.execute(),
	}))
}

/**
 * One provider's hours for the hours form: their own (null: the organization's) next to the
 * organization's. Null when the provider is not one of the organization's.
 */
export async function getProviderHours(userId: string, organizationId: string, providerId: string) {
	return asUser(userId, async (trx) => {
		const provider = await trx
			.selectFrom('booking_providers')
			.select(['id', 'display_name as displayName', 'business_hours as businessHours'])
			.where('organization_id', '=', organizationId)
			.where('id', '=', providerId)
			.executeTakeFirst()
		if (!provider) return null
		const settings = await trx
			.selectFrom('booking_settings')
			.select('business_hours')
			.where('organization_id', '=', organizationId)
			.executeTakeFirst()
		return {
			id: provider.id,
			displayName: provider.displayName,
			own: parseWeeklyHours(provider.businessHours),
			organization: parseWeeklyHours(settings?.business_hours) ?? DEFAULT_BUSINESS_HOURS,
		}
	})
}

/** Saves a provider's own hours, or null for the organization's. False when there is no such provider. */
export async function saveProviderHours(userId: string, organizationId: string, providerId: string, hours: WeeklyHours | null) {
	const result = await asUser(userId, (trx) =>
		trx
			.updateTable('booking_providers')
			.set({ business_hours: hours === null ? null : JSON.stringify(hours) })
			.where('organization_id', '=', organizationId)
			.where('id', '=', providerId)
			.executeTakeFirst(),
	)
	if (result.numUpdatedRows > 0n) notifyBookingChange(organizationId)
	return result.numUpdatedRows > 0n
}

/**
 * Everything the availability module needs for one provider on one local date: what blocks
 * them around that date, and that date's overrides. Staff may book inside the minimum notice,
 * as staff_create_booking allows, so the notice is 0 here.
 */
export async function getStaffAvailabilityInput(
	userId: string,
	organizationId: string,
	settings: BookingSettings,
	service: { durationMinutes: number },
	provider: { id: string; businessHours: unknown },
	date: string,
	now: Date,
): Promise<AvailabilityInput> {
	const [appointments, overrides] = await asUser(userId, (trx) =>
		Promise.all([
			trx
				.selectFrom('booking_appointments')
				.select(['provider_id as providerId', 'starts_at as startsAt', 'ends_at as endsAt', 'buffer_ends_at as bufferEndsAt', 'status'])
				.where('organization_id', '=', organizationId)
				.where('provider_id', '=', provider.id)
				.where('status', 'in', ACTIVE_STATUSES)
				.where('appointment_date', '>=', sql<string>`${date}::date - 1`)
				.where('appointment_date', '<=', sql<string>`${date}::date + 1`)
				.execute(),
			trx
				.selectFrom('booking_date_overrides')
				.select([
					sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date'),
					'provider_id as providerId',
					'closed',
					sql<string | null>`to_char(start_time, 'HH24:MI')`.as('start'),
					sql<string | null>`case when end_time = '24:00' then '24:00' else to_char(end_time, 'HH24:MI') end`.as('end'),
				])
				.where('organization_id', '=', organizationId)
				.where('date', '=', date)
				.where((eb) => eb.or([eb('provider_id', 'is', null), eb('provider_id', '=', provider.id)]))
				.execute(),
		]),
	)
	return {
		now,
		timezone: settings.timezone,
		settings: {
			minAdvanceHours: 0,
			maxAdvanceDays: settings.maxAdvanceDays,
			bufferMinutes: settings.bufferMinutes,
			businessHours: settings.businessHours,
		},
		service,
		providers: [{ id: provider.id, hours: parseWeeklyHours(provider.businessHours) }],
		appointments,
		overrides,
	}
}

/** The refusals of staff_create_booking (and of the availability check before it). */
export const BOOKING_REFUSALS = [
	'service_unavailable',
	'provider_unavailable',
	'invalid_guest_name',
	'invalid_guest_email',
	'phone_required',
	'invalid_guest_phone',
	'invalid_notes',
	'invalid_start',
	'in_past',
	'too_soon',
	'too_far_ahead',
	'outside_business_hours',
	'outside_provider_hours',
	'closed_that_day',
	'provider_day_off',
	'off_grid',
	'slot_taken',
] as const
export type BookingRefusal = (typeof BOOKING_REFUSALS)[number]

/**
 * Books through public.staff_create_booking. A refusal comes back as its code; an overlap that
 * reaches the table directly (SQLSTATE 23P01) is the same as a taken slot.
 */
export async function staffCreateBooking(
	userId: string,
	organizationId: string,
	input: {
		serviceId: string
		providerId: string
		start: string
		clientName: string
		/** None for a walk-in (stored as null). */
		clientEmail?: string
		clientPhone?: string
		notes?: string
	},
): Promise<{ ok: true; id: string } | { ok: false; code: BookingRefusal }> {
	try {
		const id = await asUser(userId, (trx) =>
			sql<{ id: string }>`select public.staff_create_booking(${organizationId}, ${input.serviceId}, ${input.providerId},
				${input.start}::timestamptz, ${input.clientName}, ${input.clientEmail ?? null}, ${input.clientPhone ?? null}, ${input.notes ?? null}) as id`
				.execute(trx)
				.then((r) => r.rows[0]!.id),
		)
		notifyBookingChange(organizationId)
		return { ok: true, id }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === '23P01') return { ok: false, code: 'slot_taken' }
		if ((BOOKING_REFUSALS as readonly string[]).includes(code ?? '')) return { ok: false, code: code as BookingRefusal }
		throw error
	}
}

// ---------------------------------------------------------------------------------------------
// Date overrides
// ---------------------------------------------------------------------------------------------

/** The overrides from a date on, soonest first, with the provider's name; and every provider to choose from. */
export async function listDateOverrides(userId: string, organizationId: string, fromDate: string) {
	return asUser(userId, async (trx) => ({
		overrides: await trx
			.selectFrom('booking_date_overrides as o')
			.leftJoin('booking_providers as p', 'p.id', 'o.provider_id')
			.select([
				'o.id',
				sql<string>`to_char(o.date, 'YYYY-MM-DD')`.as('date'),
				'o.closed',
				sql<string | null>`to_char(o.start_time, 'HH24:MI')`.as('start'),
				sql<string | null>`case when o.end_time = '24:00' then '24:00' else to_char(o.end_time, 'HH24:MI') end`.as('end'),
				'o.note',
				'p.display_name as providerName',
			])
			.where('o.organization_id', '=', organizationId)
			.where('o.date', '>=', fromDate)
			.orderBy('o.date')
			.orderBy('o.start_time')
			.limit(200)
			.execute(),
		providers: await trx
			.selectFrom('booking_providers')
			.select(['id', 'display_name as displayName'])
			.where('organization_id', '=', organizationId)
			.orderBy('display_name')
			.execute(),
	}))
}

/** Why an override was not added, and the field that says so. */
export type OverrideRefusal = {
	field: 'date' | 'provider' | 'start'
	code: 'datePast' | 'providerInvalid' | 'overrideDayClosed' | 'overrideHasHours' | 'overrideOverlaps'
}

/**
 * Adds a day off or special hours on one date, for everyone or one provider. Refused: a date
 * before `today` (the organization's; such a row would never be listed again), a provider not of
 * this organization, a day off where that date and scope already have hours or the reverse, and
 * hours that overlap hours already set (two periods, such as a lunch break between, are fine).
 * A day off leaves the appointments booked that day as they are: `booked` counts those still
 * pending or confirmed in its scope, for the screen to say so.
 */
export async function addDateOverride(
	userId: string,
	organizationId: string,
	values: DateOverrideValues,
	today: string,
): Promise<{ refused: OverrideRefusal } | { refused: null; booked: number }> {
	if (values.date < today) return { refused: { field: 'date', code: 'datePast' } }
	try {
		return await asUser(userId, async (trx) => {
			const { rows: same } = await sql<{ closed: boolean; start: string | null; end: string | null }>`
				select o.closed, to_char(o.start_time, 'HH24:MI') as start,
					case when o.end_time = '24:00' then '24:00' else to_char(o.end_time, 'HH24:MI') end as end
				from public.booking_date_overrides o
				where o.organization_id = ${organizationId} and o.date = ${values.date}
					and o.provider_id is not distinct from ${values.provider ?? null}::uuid`.execute(trx)
			const refuse = (refused: OverrideRefusal) => ({ refused })
			if (same.some((o) => o.closed)) return refuse({ field: 'date', code: 'overrideDayClosed' })
			if (values.closed && same.length > 0) return refuse({ field: 'date', code: 'overrideHasHours' })
			if (!values.closed && same.some((o) => o.start! < values.end! && values.start! < o.end!))
				return refuse({ field: 'start', code: 'overrideOverlaps' })
			await trx
				.insertInto('booking_date_overrides')
				.values({
					organization_id: organizationId,
					provider_id: values.provider ?? null,
					date: values.date,
					closed: values.closed,
					start_time: values.closed ? null : values.start,
					end_time: values.closed ? null : values.end,
					note: values.note || null,
				})
				.execute()
			if (!values.closed) return { refused: null, booked: 0 }
			const { rows } = await sql<{ n: number }>`
				select count(*)::int as n from public.booking_appointments a
				join public.booking_settings s on s.organization_id = a.organization_id
				where a.organization_id = ${organizationId} and a.status in (${sql.join(ACTIVE_STATUSES.map((s) => sql.lit(s)))})
					and (a.starts_at at time zone s.timezone)::date = ${values.date}::date
					and (${values.provider ?? null}::uuid is null or a.provider_id = ${values.provider ?? null}::uuid)`.execute(trx)
			return { refused: null, booked: rows[0]?.n ?? 0 }
		})
	} catch (error) {
		if (dbErrorCode(error) === '23503') return { refused: { field: 'provider', code: 'providerInvalid' } }
		throw error
	}
}

export async function deleteDateOverride(userId: string, organizationId: string, id: string) {
	const result = await asUser(userId, (trx) =>
		trx.deleteFrom('booking_date_overrides').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst(),
	)
	return result.numDeletedRows > 0n
}

// ---------------------------------------------------------------------------------------------
// Analytics
// ---------------------------------------------------------------------------------------------

export type BookingFigures = {
	appointments: number
	revenue: string
	averagePrice: string | null
	uniqueClients: number
	completionRate: number | null
	noShowRate: number | null
}

/**
 * The figures of a period of local dates and of the period of the same length just before it,
 * computed in SQL (docs/product.md, Booking): appointments are those not cancelled; revenue and
 * the average price are over completed ones; unique clients by email; the completion and
 * no-show rates are shares of the appointments.
 */
export async function getBookingAnalytics(userId: string, organizationId: string, timezone: string, from: string, to: string) {
	return asUser(userId, async (trx) => {
		const rows = await sql<{
			current: boolean
			appointments: number
			revenue: string
			average_price: string | null
			unique_clients: number
			completed: number
			no_show: number
		}>`
			with bounds as (
				select ${from}::date as cur_from, ${to}::date as cur_to,
					${from}::date - (${to}::date - ${from}::date + 1) as prev_from
			)
			select a.appointment_date >= b.cur_from as current,
				count(*) filter (where a.status <> 'cancelled')::int as appointments,
				coalesce(sum(a.total_price) filter (where a.status = 'completed'), 0)::numeric(12, 2)::text as revenue,
				(avg(a.total_price) filter (where a.status = 'completed'))::numeric(12, 2)::text as average_price,
				count(distinct lower(a.guest_email)) filter (where a.status <> 'cancelled')::int as unique_clients,
				count(*) filter (where a.status = 'completed')::int as completed,
				count(*) filter (where a.status = 'no_show')::int as no_show
			from public.booking_appointments a, bounds b
			where a.organization_id = ${organizationId}
				and a.appointment_date between b.prev_from and b.cur_to
			group by 1`.execute(trx)
		const figures = (current: boolean): BookingFigures => {
			const r = rows.rows.find((row) => row.current === current)
			const appointments = r?.appointments ?? 0
			return {
				appointments,
				revenue: r?.revenue ?? '0.00',
				averagePrice: r?.average_price ?? null,
				uniqueClients: r?.unique_clients ?? 0,
				completionRate: appointments > 0 ? (r?.completed ?? 0) / appointments : null,
				noShowRate: appointments > 0 ? (r?.no_show ?? 0) / appointments : null,
			}
		}
		const activity = await sql<{
			id: string
			kind: 'booked' | 'changed'
			at: Date
			status: AppointmentStatus
			client: string
			service: string | null
			date: string
			time: string
			starts_at: Date
		}>`
			select * from (
				select a.id, 'booked' as kind, a.created_at as at, a.status, a.guest_name as client, s.name as service,
					to_char(a.appointment_date, 'YYYY-MM-DD') as date, to_char(a.start_time, 'HH24:MI') as time, a.starts_at
				from public.booking_appointments a left join public.booking_services s on s.id = a.service_id
				where a.organization_id = ${organizationId}
				union all
				select a.id, 'changed', a.updated_at, a.status, a.guest_name, s.name,
					to_char(a.appointment_date, 'YYYY-MM-DD'), to_char(a.start_time, 'HH24:MI'), a.starts_at
				from public.booking_appointments a left join public.booking_services s on s.id = a.service_id
				where a.organization_id = ${organizationId} and a.updated_at > a.created_at + interval '1 second'
			) events
			order by at desc, kind desc
			limit 8`.execute(trx)
		// On a day the clocks change a time carries its offset, as in the calendar (calendar.ts, getCalendarView).
		const events = activity.rows.map(({ starts_at, ...e }) =>
			clocksChangeOn(e.date, timezone) ? { ...e, time: `${e.time} (UTC${offsetText(timezone, new Date(starts_at).getTime())})` } : e,
		)
		return { current: figures(true), previous: figures(false), activity: events }
	})
}
