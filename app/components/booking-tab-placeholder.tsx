import { HammerIcon } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Card, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'

/** A booking tab that a later release fills (docs/product.md, Booking). */
export function BookingTabPlaceholder({ tab }: { tab: 'services' | 'providers' }) {
	const { t } = useTranslation('booking')
	return (
		<Card>
			<CardHeader>
				<div className="mb-2 flex size-10 items-center justify-center rounded-full bg-muted">
					<HammerIcon className="size-5 text-muted-foreground" aria-hidden="true" />
				</div>
				<CardTitle>
					<h2>{t(`tabs.${tab}`)}</h2>
				</CardTitle>
				<CardDescription>{t(`placeholder.${tab}`)}</CardDescription>
			</CardHeader>
		</Card>
	)
}
