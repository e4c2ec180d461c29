import { useTranslation } from '#app/lib/use-translation.ts'
import { isRouteErrorResponse, useLocation, useParams, useRouteError, type ErrorResponse, type Params } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { errorMessageOf, logBoundaryError, type ErrorMessage } from '#app/lib/errors.ts'

type StatusHandler = (info: { error: ErrorResponse; params: Params }) => React.ReactNode | null

/**
 * The error boundary of every route (the Epic Stack's GeneralErrorBoundary): a response
 * thrown by a loader or action (403, 404, 400 …) goes to its status handler, anything else to
 * the unexpected-error handler. The default handlers say what happened in the user's language,
 * using the message key the response carries (see lib/errors.ts) or the status's own text.
 *
 * Under /app it renders inside the shell, so the sidebar stays; a route opts in with
 *
 *     export { ErrorBoundary } from '#app/components/error-boundary.tsx'
 */
export function GeneralErrorBoundary({
	defaultStatusHandler = ({ error }) => <ErrorPanel status={error.status} message={errorMessageOf(error.data)} />,
	statusHandlers,
	unexpectedErrorHandler = () => <ErrorPanel status={500} message={null} />,
}: {
	defaultStatusHandler?: StatusHandler
	statusHandlers?: Record<number, StatusHandler>
	unexpectedErrorHandler?: (error: unknown) => React.ReactNode | null
}) {
	const error = useRouteError()
	const params = useParams()
	logBoundaryError(error)
	if (isRouteErrorResponse(error)) return (statusHandlers?.[error.status] ?? defaultStatusHandler)({ error, params })
	return unexpectedErrorHandler(error)
}

/** The route module export: `export { ErrorBoundary } from '#app/components/error-boundary.tsx'`. */
export function ErrorBoundary() {
	return <GeneralErrorBoundary />
}

const STATUS_TEXTS = {
	400: 'badRequest',
	403: 'forbidden',
	404: 'notFound',
	405: 'methodNotAllowed',
	413: 'tooLarge',
	415: 'notAForm',
} as const satisfies Record<number, ErrorMessage>

function ErrorPanel({ status, message }: { status: number; message: ErrorMessage | null }) {
	const { t } = useTranslation()
	const { pathname, search } = useLocation()
	const known = status in STATUS_TEXTS ? (status as keyof typeof STATUS_TEXTS) : null
	const inApp = pathname === '/app' || pathname.startsWith('/app/')
	return (
		<div role="alert" className="grid gap-3">
			<p className="text-5xl font-bold text-primary tabular-nums">{status}</p>
			<h1 className="text-2xl font-semibold tracking-tight">{t(`errors.status.${known ?? 500}`)}</h1>
			<p className="text-muted-foreground">{t(`errors.${message ?? (known ? STATUS_TEXTS[known] : 'unexpected')}`)}</p>
			<div className="flex flex-wrap gap-4">
				{known ? null : (
					<Link to={pathname + search} reloadDocument className="text-primary underline-offset-4 hover:underline">
						{t('errors.tryAgain')}
					</Link>
				)}
				<Link to={inApp ? '/app/dashboard' : '/'} className="text-primary underline-offset-4 hover:underline">
					{inApp ? t('errors.backToDashboard') : t('errors.backHome')}
				</Link>
			</div>
		</div>
	)
}
