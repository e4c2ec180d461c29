import * as React from 'react'
import { Loader2Icon } from '#app/components/icons.tsx'
import { cn } from '../../lib/utils.ts'

/** A loading indicator announced to screen readers; the caller supplies the (translated) label. */
function Spinner({
	className,
	'aria-label': ariaLabel,
	...props
}: Omit<React.ComponentProps<'svg'>, 'aria-label'> & { 'aria-label': string }) {
	return (
		<Loader2Icon data-slot="spinner" role="status" aria-label={ariaLabel} className={cn('size-4 animate-spin', className)} {...props} />
	)
}

export { Spinner }
