import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'

/**
 * The question before an irreversible action, on a page of its own (`?cancel=…`, `?undo=…`,
 * `?leave=1`), so that it works without JavaScript: a card in the role of an alert dialog with
 * the question, what it will do, the form that confirms (`children`), and a link back that
 * changes nothing.
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
	return (
		<Card role="alertdialog" aria-labelledby={id} className="border-destructive/40">
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
