/**
 * "What you get" on a module's page (docs/product.md, Module detail): a link to each screen the
 * module unlocks, and to each screen of its upgrades, from the registry (app/lib/modules.ts).
 */
import { Link } from '#app/components/link.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { ModulePageView } from '#app/.server/marketplace/module-page.ts'
import type { UnlockedScreen } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** The screens of the module and of its upgrades, as links; "Nothing yet" for a module that is coming soon. */
export function WhatYouGet({ data }: { data: Pick<ModulePageView, 'whatYouGet'> }) {
	const { t } = useTranslation('marketplace')
	const { screens, upgrades } = data.whatYouGet
	return (
		<Card role="region" aria-labelledby="what-you-get-title">
			<CardHeader>
				<CardTitle>
					<h2 id="what-you-get-title">{t('detail.whatYouGet')}</h2>
				</CardTitle>
			</CardHeader>
			<CardContent className="grid gap-4 text-sm">
				{screens.length === 0 && upgrades.length === 0 ? <p className="text-muted-foreground">{t('detail.whatYouGetNothing')}</p> : null}
				{screens.length > 0 ? <ScreenLinks screens={screens} /> : null}
				{upgrades.map((u) => (
					<section key={u.id} aria-labelledby={`get-${u.id}`} className="grid gap-1">
						<h3 id={`get-${u.id}`} className="font-semibold">
							{t('detail.withUpgrade', { name: u.name })}
						</h3>
						<ScreenLinks screens={u.screens} />
					</section>
				))}
			</CardContent>
		</Card>
	)
}

function ScreenLinks({ screens }: { screens: UnlockedScreen[] }) {
	const { t } = useTranslation('marketplace')
	return (
		<ul className="grid gap-1">
			{screens.map((s) => (
				<li key={s.key}>
					<Link to={s.to} className="underline underline-offset-4">
						{t(`screens.${s.key}`)}
					</Link>
				</li>
			))}
		</ul>
	)
}
