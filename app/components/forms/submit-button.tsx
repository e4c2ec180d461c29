import { useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'

/** A submit button that shows a spinner and disables itself while its form is being submitted. */
export function SubmitButton({
	label,
	pendingLabel,
	intent,
	className,
}: {
	label: string
	pendingLabel: string
	/** When several forms share a page: the `intent` value whose submission this button tracks. */
	intent?: string
	className?: string
}) {
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && (intent === undefined || navigation.formData?.get('intent') === intent)
	return (
		<Button type="submit" disabled={pending} className={className}>
			{pending ? <Spinner aria-label={pendingLabel} /> : null}
			{pending ? pendingLabel : label}
		</Button>
	)
}
