import { AlertCircleIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'

/**
 * A form-level error: `code` names a translation pair `{ns}:errors.{code}.title` and
 * `.description`. Rendered by the server too, so it shows without JavaScript.
 */
export function FormAlert({ ns, code, id }: { ns: string; code: string | undefined; id?: string }) {
	const { t } = useTranslation(ns)
	if (!code) return null
	return (
		<Alert variant="destructive" id={id}>
			<AlertCircleIcon />
			<AlertTitle>{t(`errors.${code}.title`)}</AlertTitle>
			<AlertDescription>{t(`errors.${code}.description`)}</AlertDescription>
		</Alert>
	)
}
