import { useTranslation } from 'react-i18next'
import type { Toast } from '#app/.server/toast.ts'
import { cn } from '#app/lib/utils.ts'

/** Without JavaScript the flash toast shows as this notice (inside <noscript>). */
export function FlashNotice({ toast }: { toast: Toast }) {
	const { t } = useTranslation()
	return (
		<noscript>
			<div
				role={toast.type === 'error' ? 'alert' : 'status'}
				className={cn(
					'fixed top-4 right-4 z-50 max-w-sm rounded-md border p-4 shadow-md',
					toast.type === 'error' ? 'border-destructive bg-red-50 text-destructive' : 'bg-card text-card-foreground',
				)}
			>
				<p className="font-semibold">{t(toast.title, toast.values)}</p>
				{toast.description ? <p className="text-sm">{t(toast.description, toast.values)}</p> : null}
			</div>
		</noscript>
	)
}
