import { Link } from '#app/components/link.tsx'
import { DEPOSIT_KINDS, type DepositKind } from '#app/lib/schemas/booking-tables.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** Where the organization's payment handles are set (Settings › Organization, the "Getting paid" card). */
export const GETTING_PAID_HREF = '/app/settings/organization#getting-paid'

/** The deposit choices of a service: None, Fixed amount, Full prepayment. */
export function depositOptions(t: (key: string) => string) {
	return DEPOSIT_KINDS.map((kind) => [kind, t(`services.depositKinds.${kind}`)] as const)
}

/** A service's deposit in words: "None", "$20.00", "Full prepayment", with "after 2 no-shows" when it is asked only then. */
export function useDepositText() {
	const { t } = useTranslation('booking')
	const fmt = useFormat()
	return (row: { depositKind: DepositKind; depositAmount: string | null; depositAfterNoShows: number | null }) => {
		if (row.depositKind === 'none') return t('services.depositKinds.none')
		const what = row.depositKind === 'fixed' ? fmt.money(row.depositAmount ?? '0') : t('services.depositKinds.full')
		return row.depositAfterNoShows ? t('services.depositAfterNoShows', { what, count: row.depositAfterNoShows }) : what
	}
}

/**
 * The services tab's note on deposits: without the Deposits & Prepayment upgrade the deposits
 * set here are not asked (a link to get it); with it, a deposit asked while the organization has
 * said nowhere to pay it (a link to Getting paid).
 */
export function DepositNotice({ notice }: { notice: { kind: 'inactive'; href: string } | { kind: 'noHandle' } }) {
	const { t } = useTranslation('booking')
	const key = notice.kind === 'inactive' ? 'services.depositsInactive' : 'services.noHandle'
	return (
		<div role="note" className="mb-4 grid gap-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
			<p className="font-medium">{t(`${key}.title`)}</p>
			<p>
				{t(`${key}.description`)}{' '}
				<Link to={notice.kind === 'inactive' ? notice.href : GETTING_PAID_HREF} className="font-medium underline underline-offset-2">
					{t(`${key}.link`)}
				</Link>
			</p>
		</div>
	)
}
