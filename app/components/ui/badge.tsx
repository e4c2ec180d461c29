import * as React from 'react'
import { cva, type VariantProps } from 'class-variance-authority'
import { Slot } from 'radix-ui'
import { cn } from '../../lib/utils.ts'

const badgeVariants = cva(
	// The shared look is the `badge` rule of app/styles/app.css: one short class in the page per badge.
	'badge',
	{
		variants: {
			variant: {
				default: 'border-transparent bg-primary text-primary-foreground',
				secondary: 'border-transparent bg-secondary text-secondary-foreground',
				destructive: 'border-transparent bg-destructive text-white dark:bg-destructive/60',
				outline: 'text-foreground',
				success: 'border-transparent bg-success/15 text-green-800 dark:bg-success/20 dark:text-success',
				warning: 'border-transparent bg-warning/20 text-amber-800 dark:bg-warning/20 dark:text-warning',
			},
		},
		defaultVariants: { variant: 'default' },
	},
)

function Badge({
	className,
	variant,
	asChild = false,
	...props
}: React.ComponentProps<'span'> & VariantProps<typeof badgeVariants> & { asChild?: boolean }) {
	const Comp = asChild ? Slot.Root : 'span'
	// No shadcn `data-slot`/`data-variant` attributes: nothing reads them, and every attribute is
	// written out piece by piece on each badge of every page (bench/README.md).
	return <Comp className={cn(badgeVariants({ variant }), className)} {...props} />
}

export { Badge, badgeVariants }
