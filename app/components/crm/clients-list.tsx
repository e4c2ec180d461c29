import { DownloadIcon, UploadIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The clients list's CRM parts (docs/product.md, Clients): the tag filter (a field of the list's
 * search form, so it works without JavaScript), what is filtered, and the buttons to export the
 * list as filtered, import a file and open the pipelines.
 */

export function TagFilterField({ tag }: { tag: string }) {
	const { t } = useTranslation('clients')
	return (
		<Input
			name="tag"
			defaultValue={tag}
			key={tag}
			maxLength={40}
			aria-label={t('crm.tags.filter')}
			placeholder={t('crm.tags.filter')}
			className="w-full sm:w-40"
		/>
	)
}

export function TagFilterNotice({ tag }: { tag: string }) {
	const { t } = useTranslation('clients')
	if (!tag) return null
	return (
		<p className="flex flex-wrap items-center gap-2 text-sm" data-testid="tag-filter">
			<span>{t('crm.tags.filtered', { tag })}</span>
			<Link to="/app/clients" className="text-primary underline-offset-4 hover:underline">
				{t('crm.tags.clear')}
			</Link>
		</p>
	)
}

export function ClientsCrmActions({
	basicFields,
	pipelines,
	enterprise,
	exportHref,
}: {
	basicFields: boolean
	pipelines: boolean
	/** CRM Enterprise: the possible duplicates and recent merges (docs/product.md, Clients › Duplicates and merges). */
	enterprise?: boolean
	exportHref: string
}) {
	const { t } = useTranslation('clients')
	return (
		<>
			{enterprise ? (
				<Button variant="outline" asChild>
					<Link to="/app/clients/duplicates">{t('duplicates.link')}</Link>
				</Button>
			) : null}
			{pipelines ? (
				<Button variant="outline" asChild>
					<Link to="/app/clients/pipelines">{t('crm.pipelines.link')}</Link>
				</Button>
			) : null}
			{basicFields ? (
				<>
					<Button variant="outline" asChild>
						<a href={exportHref} download>
							<DownloadIcon aria-hidden="true" />
							{t('crm.transfer.export')}
						</a>
					</Button>
					<Button variant="outline" asChild>
						<Link to="/app/clients/import">
							<UploadIcon aria-hidden="true" />
							{t('crm.transfer.import')}
						</Link>
					</Button>
				</>
			) : null}
		</>
	)
}
