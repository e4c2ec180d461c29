import { useTranslation } from 'react-i18next'
import { ComingSoon } from '#app/components/coming-soon.tsx'
import type { Route } from './+types/transactions'

export const meta: Route.MetaFunction = () => [{ title: 'P2P Transaction Tracker' }]

export default function Screen() {
	const { t } = useTranslation()
	return <ComingSoon title={t('nav.transactions')} />
}
