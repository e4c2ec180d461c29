import { Link } from '#app/components/link.tsx'
import { ModuleIcon } from '#app/components/marketplace/module-icon.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { CatalogueEntry } from '#app/.server/marketplace/marketplace-page.ts'
import { INDUSTRY_TEMPLATES } from '#app/lib/modules.ts'
import { useParamsHref } from '#app/lib/use-params-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** The industry templates (lib/modules.ts), each naming the catalogue modules it bundles. */
export function IndustryTemplates({ catalogue }: { catalogue: CatalogueEntry[] }) {
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const byId = Object.fromEntries(catalogue.map((m) => [m.id, m]))
	return (
		<section aria-labelledby="templates-heading" className="grid gap-3">
			<div>
				<h2 id="templates-heading" className="text-lg font-semibold">
					{t('templates.title')}
				</h2>
				<p className="text-sm text-muted-foreground">{t('templates.description')}</p>
			</div>
			<ul className="grid grid-cols-1 gap-4 @2xl:grid-cols-3">
				{INDUSTRY_TEMPLATES.map((template) => (
					<li key={template.id} className="flex">
						<Card className="w-full gap-3" role="article" aria-labelledby={`template-${template.id}`}>
							<CardHeader>
								<ModuleIcon name={template.icon} className="size-5" />
								<CardTitle>
									<h3 id={`template-${template.id}`}>{t(`templates.${template.id}.name`)}</h3>
								</CardTitle>
								<CardDescription>{t(`templates.${template.id}.description`)}</CardDescription>
							</CardHeader>
							<CardContent>
								<ul className="grid gap-1 text-sm">
									{template.moduleIds.map((id) => {
										const m = byId[id]
										if (!m) return null
										return (
											<li key={id} className="flex items-center gap-2">
												<ModuleIcon name={m.icon} className="size-4" />
												<Link to={href({ module: id, confirm: null })} className="underline underline-offset-4" preventScrollReset>
													{m.name}
												</Link>
												{m.active ? <span className="text-xs text-muted-foreground">{t('status.activated')}</span> : null}
											</li>
										)
									})}
								</ul>
							</CardContent>
						</Card>
					</li>
				))}
			</ul>
		</section>
	)
}
