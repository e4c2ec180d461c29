import { useUrlDialog } from '#app/lib/use-url-dialog.ts'
import { cn } from '#app/lib/utils.ts'

/**
 * A dialog opened by an address, rendered by the server (works without JavaScript): a section
 * in the role of a dialog or an alert dialog that, with JavaScript, takes focus, closes with
 * Escape to `close` and gives focus back (`useUrlDialog`).
 */
export function UrlDialog({
	role = 'dialog',
	close,
	openKey,
	labelledBy,
	describedBy,
	className,
	children,
}: {
	role?: 'dialog' | 'alertdialog'
	close: string
	openKey: string
	labelledBy: string
	describedBy?: string
	className?: string
	children: React.ReactNode
}) {
	const ref = useUrlDialog<HTMLElement>(close, openKey)
	return (
		<section
			ref={ref}
			tabIndex={-1}
			role={role}
			aria-labelledby={labelledBy}
			aria-describedby={describedBy}
			className={cn('outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50', className)}
		>
			{children}
		</section>
	)
}
