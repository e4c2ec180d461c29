import { useTranslation } from 'react-i18next'
import { ComingSoon } from '#app/components/coming-soon.tsx'
import { titleMeta } from '#app/lib/meta.ts'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('moduleDetail')

export default function Screen() {
	const { t } = useTranslation()
	return <ComingSoon title={t('nav.moduleDetail')} />
}
