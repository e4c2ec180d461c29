import { Label } from '#app/components/ui/label.tsx'

/**
 * A form field: label, control and the error under it (docs/product.md, Validation: errors sit under the field, in
 * the user's language). `error` is already translated; `errorId` ties it to the control's
 * aria-describedby (conform's `field.errorId`).
 */
export function Field({
	label,
	htmlFor,
	error,
	errorId,
	children,
}: {
	label: string
	htmlFor: string
	error?: string
	errorId?: string
	children: React.ReactNode
}) {
	return (
		<div className="grid gap-2">
			<Label htmlFor={htmlFor}>{label}</Label>
			{children}
			{error ? (
				<p id={errorId} className="text-sm text-destructive">
					{error}
				</p>
			) : null}
		</div>
	)
}
