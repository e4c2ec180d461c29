/**
 * The public booking wizard's steps (docs/product.md, Public booking; docs/decisions/013-public-wizard.md).
 * The availability comes from the one module the staff calendar uses too (app/lib/availability.ts).
 *
 * The choices travel in the query string, the contact details in a short-lived signed cookie
 * (choices.ts). `resolveWizard` reads both, keeps what is still valid and says which step first
 * needs input.
 */
import { data, redirect, type RouterContextProvider } from 'react-router'
import { availabilityOf, isSlotAvailable, type Availability, type AvailabilityInput } from '#app/lib/availability.ts'
import type { ContactValues } from '#app/lib/schemas/book.ts'
import { getManagedBooking, isChangeable, type ManagedBooking } from './bookings.ts'
import { bookedUrl, choiceQuery, readChoices, readContact, stepUrl, STEPS, type Choices, type Step } from './choices.ts'
import { whenText } from './mail.ts'
import {
	getAvailabilityInput,
	organizationFor,
	type Catalogue,
	type PublicOrganization,
	type PublicProvider,
	type PublicService,
} from './organization.ts'

/** Everything a step shows: the organization, its catalogue, and the choices still valid. */
export type Wizard = {
	org: PublicOrganization
	catalogue: Catalogue
	choices: Choices
	service: PublicService | null
	provider: PublicProvider | null
	/** The chosen service's availability (null until a service is chosen): worked out as far as a step asks. */
	availability: Availability | null
	/** The chosen start, when it is bookable with the chosen provider. */
	slot: { start: string; end: string; date: string; label: string } | null
	contact: ContactValues | null
	reschedule: ManagedBooking | null
}

/**
 * The chosen time as the visitor reads it, in the zone they show times in (details and
 * confirmation steps, once `resolveWizard` has a slot).
 */
export function chosenWhen(w: Wizard, language: string) {
	const slot = w.slot!
	return whenText(
		{ startsAt: slot.start, endsAt: slot.end, timezone: w.catalogue.settings.timezone },
		language,
		w.choices.tz ?? w.catalogue.settings.timezone,
	)
}

/** Reasons that hold for every provider: a start off the organization's grid or hours, past, too soon or too far ahead. */
const TIME_REASONS: readonly string[] = ['invalid_start', 'in_past', 'too_soon', 'too_far_ahead', 'off_grid', 'outside_business_hours']

/** Why a start chosen before its provider is not offered: the time's own reason, else taken. */
function unlistedReason(input: AvailabilityInput, catalogue: Catalogue, start: string) {
	const first = catalogue.providers[0]
	const check = first ? isSlotAvailable({ ...input, providerId: first.id, start }) : null
	return check && !check.ok && TIME_REASONS.includes(check.reason) ? check.reason : 'slot_taken'
}

/**
 * Everything a step shows, or a redirect to the first step that needs input, keeping the choices
 * that are still valid. A choice that is no longer valid (a service made inactive, a start taken)
 * is dropped; `refused` says why, for the message on the page it lands on.
 */
export async function resolveWizard(
	{ request, context, slug }: { request: Request; context: Readonly<RouterContextProvider>; slug: string },
	step: Step,
	now = new Date(),
): Promise<Wizard> {
	const found = await organizationFor(context, slug)
	if (!found) throw new Response(null, { status: 404 })
	const { org, catalogue } = found
	// "Accept bookings from the public page" off: every step says so, instead of a wizard that
	// fails at the last one (decision 007). Booked pages stay open to view and cancel.
	if (!catalogue.settings.allowGuestBooking) throw data({ bookingsClosed: true }, { status: 403 })
	const url = new URL(request.url)
	const choices = readChoices(url)
	const reschedule = choices.reschedule ? await getManagedBooking(choices.reschedule) : null
	if (choices.reschedule && (!reschedule || reschedule.organizationSlug !== org.slug)) delete choices.reschedule
	// A booking cancelled, or inside its notice, can no longer move: its page says so at once,
	// not the last step (an old "Choose another time" link, a tab left open).
	else if (reschedule && choices.reschedule && !isChangeable(reschedule, now))
		throw redirect(bookedUrl(org.slug, { id: reschedule.id, token: choices.reschedule }))
	if (reschedule?.serviceId) choices.service = reschedule.serviceId
	const service = catalogue.services.find((s) => s.id === choices.service) ?? null
	const provider = service ? (catalogue.providers.find((p) => p.id === choices.provider) ?? null) : null
	const valid: Choices = { mode: choices.mode, tz: choices.tz, reschedule: reschedule ? choices.reschedule : undefined }
	const wizard: Wizard = { org, catalogue, choices: valid, service, provider, availability: null, slot: null, contact: null, reschedule }
	const needs = (at: Step, refused?: string) => {
		if (STEPS.indexOf(step) > STEPS.indexOf(at) || (step === at && refused)) {
			const target = stepUrl(org.slug, at, wizard.choices) + (refused ? `${choiceQuery(wizard.choices) ? '&' : '?'}refused=${refused}` : '')
			throw redirect(target)
		}
	}
	if (!service) {
		needs('service', choices.service ? 'service_unavailable' : undefined)
		return wizard
	}
	valid.service = service.id
	if (step === 'service') return wizard
	const input = await getAvailabilityInput(org.id, catalogue, service, now)
	const availability = (wizard.availability = availabilityOf(input))
	if (provider) valid.provider = provider.id
	else if (choices.provider) return (needs('slot', 'provider_unavailable'), wizard)
	if (choices.date && availability.listed(choices.date)) valid.date = choices.date
	if (choices.more) valid.more = choices.more
	if (choices.start) {
		if (provider) {
			const check = isSlotAvailable({ ...input, providerId: provider.id, start: choices.start })
			if (check.ok) {
				valid.start = check.slot.start
				wizard.slot = { start: check.slot.start, end: check.slot.end, date: check.slot.date, label: check.slot.label }
			} else if (step !== 'slot') {
				return (needs('slot', check.reason), wizard)
			}
		} else {
			// Time first: the start stays while the visitor picks a provider free then.
			const listed = (availability.slotAt(choices.start)?.providerIds.length ?? 0) > 0
			if (listed) valid.start = choices.start
			else if (step !== 'slot') return (needs('slot', unlistedReason(input, catalogue, choices.start)), wizard)
		}
	}
	if (!wizard.slot) {
		needs('slot')
		return wizard
	}
	if (reschedule) {
		// A reschedule keeps the booking's details: from the slot straight to confirmation.
		if (step === 'details') throw redirect(stepUrl(org.slug, 'confirm', valid))
		return wizard
	}
	wizard.contact = await readContact(request, org.slug)
	if (step === 'details') return wizard
	if (!wizard.contact || (catalogue.settings.requirePhone && !wizard.contact.phone)) needs('details')
	return wizard
}
