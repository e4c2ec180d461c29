import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { MAIN_ID } from '#app/components/shell/skip-link.tsx'
import { titleMeta } from '#app/lib/meta.ts'

export const meta = titleMeta('book')

/** /book without an organization: the invalid-link page. */
export function loader() {
	return data(null, { status: 404 })
}

export default function InvalidLink() {
	const { t } = useTranslation('book')
	return (
		<main id={MAIN_ID} tabIndex={-1} className="mx-auto flex min-h-svh max-w-lg flex-col justify-center gap-3 p-6 text-center">
			<h1 className="text-2xl font-semibold">{t('invalidLink.title')}</h1>
			<p className="text-muted-foreground">{t('invalidLink.description')}</p>
		</main>
	)
}
