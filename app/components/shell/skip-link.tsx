import { useTranslation } from '#app/lib/use-translation.ts'

/** The id of every page's `<main>`: the skip link's target. */
export const MAIN_ID = 'main-content'

/**
 * The first tab stop of every page: hidden until focused, it moves keyboard users past the
 * sidebar and header straight to the page's content.
 */
export function SkipLink() {
	const { t } = useTranslation()
	return (
		<a
			href={`#${MAIN_ID}`}
			className="sr-only z-[100] rounded-md bg-background px-4 py-2 text-sm font-medium text-foreground shadow-md ring-2 ring-ring focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
		>
			{t('skipToContent')}
		</a>
	)
}
