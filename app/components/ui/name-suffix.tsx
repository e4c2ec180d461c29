import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * Says which item a short control acts on, to assistive technology only, after the words the
 * control shows: "Deactivate" is named "Deactivate — Appointment Booking". The accessible name
 * starts with the visible label (WCAG 2.5.3, Label in Name), so speech users can say what they see.
 */
export function NameSuffix({ name }: { name: string }) {
	const { t } = useTranslation()
	return <span className="sr-only">{t('common:nameSuffix', { name })}</span>
}
