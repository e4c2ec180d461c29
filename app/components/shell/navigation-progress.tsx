import { useEffect, useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useNavigation } from 'react-router'

/** A navigation faster than this shows nothing: a flash of a bar would only distract. */
const SHOW_AFTER_MS = 150

/**
 * A thin bar along the top of the window while a client navigation or form submission waits
 * for the server, after 150 ms (docs/product.md, App shell: Feedback and keyboard). Without JavaScript the browser's own
 * loading indicator does the job.
 */
export function NavigationProgress() {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const busy = navigation.state !== 'idle'
	const [shown, setShown] = useState(false)
	useEffect(() => {
		if (!busy) return
		const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS)
		return () => {
			clearTimeout(timer)
			setShown(false)
		}
	}, [busy])
	if (!busy || !shown) return null
	return (
		<div
			role="progressbar"
			aria-label={t('loadingPage')}
			className="fixed inset-x-0 top-0 z-[100] h-0.5 overflow-hidden bg-primary/20"
			data-testid="navigation-progress"
		>
			<div className="h-full w-1/3 animate-[navigation-progress_1.2s_ease-in-out_infinite] bg-primary" />
		</div>
	)
}
