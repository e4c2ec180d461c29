/**
 * The words of a Form 1099-K check (docs/product.md, Reports: Tax year), shared by the screen and
 * the exports so the three say the same sentence: a threshold's rule ("more than $20,000 and more
 * than 200 payments", "$600 or more") and whether a rail's year passes it.
 */

/** One row of public.form_1099k_thresholds, as the screen and the exports read it. */
export type Threshold = {
	/** 'US' for the federal rule, else a state's (or DC's) two-letter code. */
	jurisdiction: string
	minAmount: string
	/** true: at least minAmount; false: more than it. */
	amountInclusive: boolean
	minCount: number | null
	countInclusive: boolean
	sourceName: string
	sourceUrl: string
	verifiedOn: string
}

type T = (key: string, options?: Record<string, unknown>) => string

/** A threshold's rule in words, with money and counts formatted by the caller (screen, CSV or PDF). */
export function thresholdRule(th: Threshold, t: T, money: (v: string) => string, count: (n: number) => string) {
	const amount = t(th.amountInclusive ? 'rules.atLeast' : 'rules.moreThan', { amount: money(th.minAmount) })
	if (th.minCount === null) return amount
	const payments = t(th.countInclusive ? 'rules.countAtLeast' : 'rules.countMoreThan', { count: count(th.minCount) })
	return t('rules.both', { amount, payments })
}

/** "Passes the federal threshold (…): expect a Form 1099-K" / "Below the Massachusetts threshold (…)". */
export function checkSentence(
	check: { threshold: Threshold; passes: boolean },
	t: T,
	money: (v: string) => string,
	count: (n: number) => string,
) {
	const rule = thresholdRule(check.threshold, t, money, count)
	const key = `${check.threshold.jurisdiction === 'US' ? 'federal' : 'state'}.${check.passes ? 'passes' : 'below'}`
	return t(`thresholds.${key}`, { rule, state: t(`states.${check.threshold.jurisdiction}`) })
}

/** The US states and DC, by code, for the organization's state (organizations.state's check). */
export const US_STATES = [
	'AL',
	'AK',
	'AZ',
	'AR',
	'CA',
	'CO',
	'CT',
	'DE',
	'DC',
	'FL',
	'GA',
	'HI',
	'ID',
	'IL',
	'IN',
	'IA',
	'KS',
	'KY',
	'LA',
	'ME',
	'MD',
	'MA',
	'MI',
	'MN',
	'MS',
	'MO',
	'MT',
	'NE',
	'NV',
	'NH',
	'NJ',
	'NM',
	'NY',
	'NC',
	'ND',
	'OH',
	'OK',
	'OR',
	'PA',
	'RI',
	'SC',
	'SD',
	'TN',
	'TX',
	'UT',
	'VT',
	'VA',
	'WA',
	'WV',
	'WI',
	'WY',
] as const
export type UsState = (typeof US_STATES)[number]

export function isUsState(value: unknown): value is UsState {
	return typeof value === 'string' && (US_STATES as readonly string[]).includes(value)
}
