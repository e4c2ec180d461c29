import { useTranslation } from '#app/lib/use-translation.ts'
import type { Toast } from '#app/.server/toast.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { formatValues } from '#app/lib/format.ts'
import { cn } from '#app/lib/utils.ts'

/**
 * The flash message as a notice rendered by the server: what a visitor without JavaScript
 * (or before it loads) sees. Once the page hydrates, the toast takes its place.
 */
export function FlashNotice({ toast }: { toast: Toast }) {
	const { t, i18n } = useTranslation()
	const hydrated = useHydrated()
	if (hydrated) return null
	const values = formatValues(toast.values, i18n.language)
	return (
		<div
			role={toast.type === 'error' ? 'alert' : 'status'}
			className={cn(
				'border-b px-4 py-3 text-sm',
				toast.type === 'error' ? 'border-destructive/40 bg-red-50 text-destructive' : 'bg-muted text-foreground',
			)}
		>
			<p className="mx-auto max-w-6xl">
				<strong className="font-semibold">{t(toast.title, values)}</strong>
				{toast.description ? ` ${t(toast.description, values)}` : null}
			</p>
		</div>
	)
}
