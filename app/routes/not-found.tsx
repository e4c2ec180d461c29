import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { log } from '#app/.server/log.ts'
import { MAIN_ID } from '#app/components/shell/skip-link.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/not-found'

export const meta = titleMeta('notFound')

export function loader({ request }: Route.LoaderArgs) {
	const { pathname } = new URL(request.url)
	log({ event: 'not_found', path: pathname })
	return data(null, { status: 404 })
}

export function action({ request }: Route.ActionArgs) {
	return loader({ request } as Route.LoaderArgs)
}

export default function NotFound() {
	const { t } = useTranslation('notFound')
	return (
		<main id={MAIN_ID} tabIndex={-1} className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
			<p className="text-6xl font-bold text-primary">{t('code')}</p>
			<h1 className="text-2xl font-semibold">{t('title')}</h1>
			<p className="text-muted-foreground">{t('description')}</p>
			<Link to="/" className="text-primary underline underline-offset-4">
				{t('backHome')}
			</Link>
		</main>
	)
}
