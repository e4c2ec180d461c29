import { Link } from '#app/components/link.tsx'
import { languageNames, type Language } from '#app/lib/i18n.ts'
import type { MessageKind } from '#app/lib/schemas/messaging.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { cn } from '#app/lib/utils.ts'

export type TemplateSummary = { kind: MessageKind; language: Language; edited: boolean }

/**
 * The templates, kind by kind, each in its three languages (docs/product.md, Reminders &
 * Messaging): links that open one in the editor (`?kind=…&lang=…`, so the choice is in the
 * address and works without JavaScript), the open one marked, each saying whether the
 * organization edited it.
 */
export function TemplateList({ templates, current }: { templates: TemplateSummary[]; current: { kind: MessageKind; language: Language } }) {
	const { t } = useTranslation('messaging')
	const kinds = [...new Set(templates.map((x) => x.kind))]
	return (
		<nav aria-label={t('templates.choose')} className="grid gap-4 sm:grid-cols-3">
			{kinds.map((kind) => (
				<section key={kind} aria-labelledby={`kind-${kind}`} className="grid content-start gap-2 rounded-md border p-3">
					<h2 id={`kind-${kind}`} className="text-sm font-medium">
						{t(`kinds.${kind}`)}
					</h2>
					<ul className="flex flex-wrap gap-2">
						{templates
							.filter((x) => x.kind === kind)
							.map((x) => {
								const open = x.kind === current.kind && x.language === current.language
								return (
									<li key={x.language}>
										<Link
											to={`?kind=${x.kind}&lang=${x.language}`}
											preventScrollReset
											aria-current={open ? 'page' : undefined}
											className={cn(
												'inline-flex flex-col rounded-md border px-3 py-1.5 text-sm hover:bg-accent',
												open && 'border-primary bg-accent font-medium',
											)}
										>
											<span>{languageNames[x.language]}</span>
											<span className={cn('text-xs', open ? 'text-foreground' : 'text-muted-foreground')}>
												{x.edited ? t('templates.edited') : t('templates.builtIn')}
											</span>
										</Link>
									</li>
								)
							})}
					</ul>
				</section>
			))}
		</nav>
	)
}
