/**
 * The staff side of the booking module (docs/product.md, Booking): whether the organization
 * has it, the shareable link, and the booking settings. Every query names the organization
 * explicitly and runs as the signed-in user (RLS decides the rows).
 */
import { redirect, type RouterContextProvider } from "react-router";
import {
  DEFAULT_BUSINESS_HOURS,
  parseWeeklyHours,
  type WeeklyHours,
} from "#app/lib/availability.ts";
import { errorResponse } from "#app/lib/errors.ts";
import type { BookingSettingsValues } from "#app/lib/schemas/booking.ts";
import { requireMember } from "./auth/session.ts";
import { asUser } from "./db/index.ts";
import { publicOrigin } from "./security.ts";

/** The module catalogue's `feature_type` of the booking module (supabase/seed.sql). */
const BOOKING_FEATURE = "booking";

/**
 * `/app/booking?orgSlug=X` is the public wizard of X (docs/product.md, Route table), signed in
 * or not: the /app layout calls this before its sign-in guard.
 */
export function publicWizardRedirect(request: Request) {
  const url = new URL(request.url);
  if (url.pathname.replace(/\/+$/, "") !== "/app/booking") return;
  const slug = url.searchParams.get("orgSlug")?.trim();
  if (slug) throw redirect(`/book/${encodeURIComponent(slug)}`);
}

/** The public booking page of an organization: the site's origin plus /book/{slug}. */
export function publicBookingUrl(slug: string) {
  return `${publicOrigin()}/book/${encodeURIComponent(slug)}`;
}

/** True when the organization has activated the booking module in the marketplace. */
export async function isBookingActive(
  userId: string,
  organizationId: string,
): Promise<boolean> {
  const row = await asUser(userId, (trx) =>
    trx
      .selectFrom("organization_modules as om")
      .innerJoin("modules as m", "m.id", "om.module_id")
      .select("om.id")
      .where("om.organization_id", "=", organizationId)
      .where("m.feature_type", "=", BOOKING_FEATURE)
      .executeTakeFirst(),
  );
  return row !== undefined;
}

export type BookingSettings = {
  minAdvanceHours: number;
  maxAdvanceDays: number;
  bufferMinutes: number;
  autoConfirm: boolean;
  allowGuestBooking: boolean;
  requirePhone: boolean;
  cancellationHours: number;
  timezone: string;
  businessHours: WeeklyHours;
};

/** The organization's booking settings (one row, made with the organization). */
export async function getBookingSettings(
  userId: string,
  organizationId: string,
): Promise<BookingSettings | null> {
  const row = await asUser(userId, (trx) =>
    trx
      .selectFrom("booking_settings")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .executeTakeFirst(),
  );
  if (!row) return null;
  return {
    minAdvanceHours: row.min_advance_hours,
    maxAdvanceDays: row.max_advance_days,
    bufferMinutes: row.buffer_minutes,
    autoConfirm: row.auto_confirm,
    allowGuestBooking: row.allow_guest_booking,
    requirePhone: row.require_phone,
    cancellationHours: row.cancellation_hours,
    timezone: row.timezone,
    businessHours:
      parseWeeklyHours(row.business_hours) ?? DEFAULT_BUSINESS_HOURS,
  };
}

/**
 * Saves the settings. The row exists from the organization's creation, and members may update
 * but not insert it (docs/data-model.md, Who may do what): false when there is no row to update.
 */
export async function saveBookingSettings(
  userId: string,
  organizationId: string,
  values: BookingSettingsValues,
): Promise<boolean> {
  const result = await asUser(userId, (trx) =>
    trx
      .updateTable("booking_settings")
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
      })
      .where("organization_id", "=", organizationId)
      .executeTakeFirst(),
  );
  return result.numUpdatedRows > 0n;
}

/**
 * For the booking tabs' loaders and actions: the member, when the organization has the booking
 * module; otherwise a 403 (the booking layout shows why and links to the marketplace instead).
 */
export async function requireBookingMember(
  context: Readonly<RouterContextProvider>,
) {
  const member = requireMember(context);
  if (!(await isBookingActive(member.user.userId, member.organization.id)))
    errorResponse(403, "forbidden");
  return member;
}
