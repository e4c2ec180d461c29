import { Link } from '#app/components/link.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { UrlDialog } from '#app/components/url-dialog.tsx'
import { useParamsHref } from '#app/lib/use-params-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * "Deactivate {name}?" (docs/product.md, Marketplace and modules), opened by `?confirm=deactivate`
 * on the marketplace and on a module's page: spent gears are not refunded. `moduleId` names the
 * module where the page's form needs it (the marketplace lists them all).
 */
export function ConfirmDeactivate({ name, moduleId }: { name: string; moduleId?: string }) {
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const close = href({ confirm: null })
	return (
		<UrlDialog
			role="alertdialog"
			close={close}
			openKey={moduleId ?? 'deactivate'}
			labelledBy="confirm-title"
			describedBy="confirm-description"
			className="grid gap-3 rounded-md border border-destructive/40 p-3 text-sm"
		>
			<h3 id="confirm-title" className="font-semibold">
				{t('confirm.title', { name })}
			</h3>
			<p id="confirm-description">{t('confirm.description')}</p>
			<div className="flex gap-2">
				<Button asChild variant="outline" size="sm">
					<Link to={close} preventScrollReset>
						{t('confirm.cancel')}
					</Link>
				</Button>
				<AppForm method="post" preventScrollReset>
					<input type="hidden" name="intent" value="deactivate" />
					{moduleId ? <input type="hidden" name="moduleId" value={moduleId} /> : null}
					<Button type="submit" size="sm" variant="destructive">
						{t('confirm.submit')}
					</Button>
				</AppForm>
			</div>
		</UrlDialog>
	)
}
