import { Link } from '#app/components/link.tsx'
import { useUrlDialog } from '#app/lib/use-url-dialog.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'

/**
 * The question before an irreversible action, on a page of its own (`?cancel=…`, `?undo=…`,
 * `?leave=1`), so that it works without JavaScript: a card in the role of an alert dialog with
 * the question, what it will do, the form that confirms (`children`), and a link back that
 * changes nothing. With JavaScript it takes focus and Escape keeps (`useUrlDialog`).
 */
export function ConfirmCard({
	id,
	title,
	description,
	keep,
	children,
}: {
	id: string
	title: string
	description: string
	keep: { to: string; label: string }
	children: React.ReactNode
}) {
	const ref = useUrlDialog<HTMLDivElement>(keep.to, id)
	return (
		<Card
			ref={ref}
			tabIndex={-1}
			role="alertdialog"
			aria-labelledby={id}
			className="border-destructive/40 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
		>
			<CardHeader>
				<CardTitle>
					<h2 id={id}>{title}</h2>
				</CardTitle>
				<CardDescription>{description}</CardDescription>
			</CardHeader>
			<CardContent className="flex flex-wrap gap-2">
				{children}
				<Button asChild variant="outline">
					<Link to={keep.to}>{keep.label}</Link>
				</Button>
			</CardContent>
		</Card>
	)
}
