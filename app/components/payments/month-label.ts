import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * 'YYYY-MM-01' as a short month label ("Jan 2026", "ene 2026"), from the translation files
 * rather than Intl, so that the server and the browser render the same text.
 */
export function useMonthLabel() {
	const { t } = useTranslation('reports')
	return (month: string, options: { long?: boolean } = {}) => {
		const m = Number(month.slice(5, 7))
		const year = month.slice(0, 4)
		return t(options.long ? 'monthLabelLong' : 'monthLabel', { month: t(`months.${options.long ? 'long' : 'short'}.${m}`), year })
	}
}
