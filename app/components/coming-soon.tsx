import { HammerIcon } from 'lucide-react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'

/** The panel of a screen that a later release builds. */
export function ComingSoon({ title }: { title: string }) {
	const { t } = useTranslation()
	return (
		<div className="grid gap-6">
			<h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
			<Card>
				<CardHeader>
					<div className="mb-2 flex size-10 items-center justify-center rounded-full bg-muted">
						<HammerIcon className="size-5 text-muted-foreground" aria-hidden="true" />
					</div>
					<CardTitle>
						<h2>{t('comingSoon.title')}</h2>
					</CardTitle>
					<CardDescription>{t('comingSoon.description')}</CardDescription>
				</CardHeader>
				<CardContent />
			</Card>
		</div>
	)
}
