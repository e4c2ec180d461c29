import { FileTextIcon, StoreIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The "Download PDF" button of a report (docs/product.md, Reports › Report Export): a plain link
 * to the report's PDF when the organization owns Report Export; otherwise it says that the upgrade
 * gives it and leads to the upgrade's module in the marketplace.
 */
export function ReportPdfButton({ pdf }: { pdf: { allowed: boolean; href: string } }) {
	const { t } = useTranslation('reports')
	return pdf.allowed ? (
		<Button asChild variant="outline">
			<a href={pdf.href} download title={t('pdf.hint')} data-testid="report-pdf">
				<FileTextIcon aria-hidden="true" />
				{t('pdf.button')}
			</a>
		</Button>
	) : (
		// Its sentence is long in every language: it wraps rather than widen a phone's page.
		<Button asChild variant="outline" className="h-auto min-h-9 max-w-full py-2 text-left whitespace-normal">
			<Link to={pdf.href} title={t('pdf.lockedHint')} data-testid="report-pdf-locked">
				<StoreIcon aria-hidden="true" />
				{t('pdf.locked')}
			</Link>
		</Button>
	)
}

/**
 * The print stylesheet of a report's page: the app's shell (sidebar, header, banners) and the
 * page's controls are left out, the report's figures and tables printed on the whole width in
 * black on white. The page's own controls carry Tailwind's `print:hidden`.
 */
export function ReportPrintStyle() {
	return (
		<style>{`@media print {
	#app-sidebar, #app-sidebar ~ div > header, #app-sidebar ~ div > header ~ :not(main), [data-sonner-toaster] { display: none !important; }
	main { padding: 0 !important; }
	body, main { background: #fff !important; color: #000 !important; }
	table { break-inside: auto; } tr { break-inside: avoid; } thead { display: table-header-group; }
}`}</style>
	)
}
