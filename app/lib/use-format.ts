import { useTranslation } from '#app/lib/use-translation.ts'
import {
	editableAmount,
	formatCompactMoney,
	formatDate,
	formatLanguage,
	formatMoney,
	formatNumber,
	formatPercent,
	formatWholeMoney,
} from './format.ts'

/**
 * The formatters of app/lib/format.ts bound to the interface language: the one way components
 * format money, numbers, percentages and dates. The server renders with the request's language
 * and the browser hydrates with the same one, so both print the same text.
 */
export function useFormat() {
	const { i18n } = useTranslation()
	const lng = formatLanguage(i18n.language)
	return {
		lng,
		money: (amount: string | number | null | undefined) => formatMoney(amount, lng),
		wholeMoney: (amount: number) => formatWholeMoney(amount, lng),
		compactMoney: (amount: number) => formatCompactMoney(amount, lng),
		number: (value: number) => formatNumber(value, lng),
		percent: (fraction: number) => formatPercent(fraction, lng),
		date: (value: string | Date | null | undefined) => formatDate(value, lng),
		editableAmount: (value: string) => editableAmount(value, lng),
	}
}
