import { AppForm } from '#app/components/forms/app-form.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Alert, AlertDescription } from '#app/components/ui/alert.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The client import's two steps (docs/product.md, Clients › CSV import and export): the file,
 * then what the import will do (new, completed, already there; the lines skipped and why) with
 * the button that commits it. The preview form carries the file's text, so the commit reads the
 * very file that was previewed, with or without JavaScript.
 */

export function ImportHeader() {
	const { t } = useTranslation('clients')
	return (
		<div className="grid gap-2">
			<Link to="/app/clients" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
				<ArrowLeftIcon className="size-4" aria-hidden="true" />
				{t('detail.back')}
			</Link>
			<h1 className="text-2xl font-semibold tracking-tight">{t('crm.transfer.title')}</h1>
			<p className="max-w-3xl text-sm text-muted-foreground">{t('crm.transfer.subtitle')}</p>
		</div>
	)
}

export function UploadClientsForm({ error }: { error: string | null }) {
	const { t } = useTranslation('clients')
	return (
		<AppForm method="post" encType="multipart/form-data" className="grid max-w-xl gap-3">
			<input type="hidden" name="intent" value="preview" />
			<Label htmlFor="client-file">{t('crm.transfer.file')}</Label>
			<Input
				id="client-file"
				name="file"
				type="file"
				accept=".csv,text/csv"
				required
				aria-describedby={error ? 'client-file-error' : undefined}
			/>
			{error ? (
				<p id="client-file-error" role="alert" className="text-sm text-destructive">
					{t(`crm.fileErrors.${error}`)}
				</p>
			) : null}
			<SubmitButton label={t('crm.transfer.preview')} pendingLabel={t('crm.transfer.preview')} intent="preview" className="w-fit" />
		</AppForm>
	)
}

type PreviewRow = { line: number; name: string; email: string | null; outcome: 'add' | 'fill' | 'same' }
type Preview = {
	csv: string
	rows: PreviewRow[]
	total: number
	counts: { add: number; fill: number; same: number }
	errors: Array<{ line: number; code: string }>
}

export function ImportPreview({ preview }: { preview: Preview }) {
	const { t } = useTranslation('clients')
	return (
		<section aria-labelledby="client-import-preview" className="grid min-w-0 gap-4" data-testid="client-import-preview">
			<h2 id="client-import-preview" className="text-lg font-semibold">
				{t('crm.transfer.previewTitle')}
			</h2>
			<p className="text-sm" data-testid="client-import-counts">
				{t('crm.transfer.counts', preview.counts)}
			</p>
			{preview.rows.length ? (
				<div className="rounded-md border">
					<Table>
						<caption className="sr-only">{t('crm.transfer.previewTitle')}</caption>
						<TableHeader>
							<TableRow>
								<TableHead>{t('crm.transfer.line')}</TableHead>
								<TableHead>{t('columns.name')}</TableHead>
								<TableHead>{t('columns.email')}</TableHead>
								<TableHead>{t('crm.transfer.outcome')}</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{preview.rows.map((row) => (
								<TableRow key={row.line}>
									<TableCell className="tabular-nums">{row.line}</TableCell>
									<TableCell className="whitespace-normal wrap-anywhere">{row.name}</TableCell>
									<TableCell className="whitespace-normal wrap-anywhere">{row.email}</TableCell>
									<TableCell>{t(`crm.transfer.outcomes.${row.outcome}`)}</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				</div>
			) : null}
			{preview.errors.length ? (
				<Alert>
					<AlertDescription>
						<p className="font-medium">{t('crm.transfer.skipped')}</p>
						<ul className="grid gap-1" data-testid="client-import-skipped">
							{preview.errors.map((e) => (
								<li key={e.line}>
									{t('crm.transfer.line')} {e.line}: {t(`crm.transfer.rowErrors.${e.code}`)}
								</li>
							))}
						</ul>
					</AlertDescription>
				</Alert>
			) : null}
			<div className="flex flex-wrap items-center gap-3">
				{preview.total > 0 ? (
					<AppForm method="post">
						<input type="hidden" name="intent" value="commit" />
						<textarea name="csv" defaultValue={preview.csv} hidden readOnly />
						<SubmitButton
							label={t('crm.transfer.commit', { rows: preview.total })}
							pendingLabel={t('crm.transfer.commit', { rows: preview.total })}
							intent="commit"
						/>
					</AppForm>
				) : (
					<p className="text-sm">{t('crm.transfer.nothing')}</p>
				)}
				<Link to="/app/clients/import" className="text-sm text-primary underline-offset-4 hover:underline">
					{t('crm.transfer.another')}
				</Link>
			</div>
		</section>
	)
}
