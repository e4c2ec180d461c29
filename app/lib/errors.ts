import { data, isRouteErrorResponse } from 'react-router'

/**
 * What a loader or action throws to say why it stopped: a message key of the `common`
 * namespace (under `errors.`), which the error boundary shows in the user's language.
 */
export type ErrorPayload = { message: ErrorMessage }

const MESSAGE_KEYS = [
	'badRequest',
	'forbidden',
	'notFound',
	'notMember',
	'ownerOnly',
	'unexpected',
	'methodNotAllowed',
	'tooLarge',
	'notAForm',
] as const
export type ErrorMessage = (typeof MESSAGE_KEYS)[number]

/** Throws a response with a translated message, for the error boundary to render. */
export function errorResponse(status: number, message: ErrorMessage): never {
	throw data({ message } satisfies ErrorPayload, { status })
}

/**
 * Stops a loader or action with a 400 or 404 when a condition fails (the Epic Stack's
 * invariantResponse): `invariantResponse(client, 404)`, `invariantResponse(isUuid(id), 400)`.
 */
export function invariantResponse(
	condition: unknown,
	status: 400 | 404,
	message: ErrorMessage = status === 404 ? 'notFound' : 'badRequest',
): asserts condition {
	if (!condition) errorResponse(status, message)
}

/** The message key an error response carries, when it carries one. */
export function errorMessageOf(payload: unknown): ErrorMessage | null {
	if (payload && typeof payload === 'object' && 'message' in payload) {
		const { message } = payload
		if (typeof message === 'string' && MESSAGES.has(message)) return message as ErrorMessage
	}
	return null
}

const MESSAGES = new Set<string>(MESSAGE_KEYS)

/**
 * An error boundary's unexpected error, written to the browser's console for whoever debugs the
 * page. Not on the server: there `handleError` (app/entry.server.tsx) has logged it already, as
 * one JSON line with the request's path, or left it out because the visitor had left (a page whose
 * connection closed mid-load renders its boundary with the loaders' abort).
 */
export function logBoundaryError(error: unknown) {
	if (typeof document === 'undefined' || isRouteErrorResponse(error)) return
	console.error(error)
}
