import { useTranslation } from '#app/lib/use-translation.ts'
import {
	editableAmount,
	formatCompactMoney,
	formatDate,
	formatLanguage,
	formatMoney,
	formatNumber,
	formatPercent,
	formatTime,
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
		/** A wall-clock 'HH:MM' in the language's form (12-hour in en). */
		time: (hhmm: string) => formatTime(hhmm, lng),
		/** A day and a time ({ date, time } of app/lib/dates.ts, dateTimeIn) as one phrase: 11/28/2026 2:05 PM. */
		dateTime: (value: { date: string; time: string }) => `${formatDate(value.date, lng)} ${formatTime(value.time, lng)}`,
		editableAmount: (value: string) => editableAmount(value, lng),
	}
}
