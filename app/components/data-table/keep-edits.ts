import { isRouteErrorResponse, type ShouldRevalidateFunction } from 'react-router'

/**
 * A table screen's `clientAction`: when the save never comes back (the connection dropped, the
 * server failed), the table stays as it was, with everything typed, and says so, instead of the
 * route's error page taking its place (docs/product.md, Editable tables). Redirects and the
 * server's own refusals (4xx) pass through.
 */
export async function keepEditsWhenSaveFails<T>({ serverAction }: { serverAction: () => Promise<T> }) {
	try {
		return await serverAction()
	} catch (error) {
		if (error instanceof Response || (isRouteErrorResponse(error) && error.status < 500)) throw error
		return { result: undefined, formError: 'unreachable', conflicts: undefined, confirm: undefined }
	}
}

/**
 * True after a save that did not reach the server (keepEditsWhenSaveFails): nothing changed, so
 * no route reloads its data (the reload would fail the same way and show the error page).
 */
export function saveNeverArrived(actionResult: unknown) {
	return !!actionResult && typeof actionResult === 'object' && 'formError' in actionResult && actionResult.formError === 'unreachable'
}

/** The `shouldRevalidate` of a table screen and of the routes above it: no reload after a lost save. */
export const keepDataAfterLostSave: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
	saveNeverArrived(actionResult) ? false : defaultShouldRevalidate
