/**
 * A report as a document: what a report's PDF (and its mailed copy) says, already put in words and
 * numbers of the reader's language. Each report builds one from its own figures (the tax year,
 * the reports page, the analytics), and one renderer draws any of them (./pdf.ts), so every
 * report's PDF has the same header, tables, page breaks and footer.
 */

/** A column of a table: its heading, and right alignment for amounts and counts. */
export type ReportColumn = { label: string; align?: 'left' | 'right' }

/** A table: rows of cells already formatted ("$1,234.50", "12", "Zelle"); a footer row for totals. */
export type ReportTable = { caption?: string; columns: ReportColumn[]; rows: string[][]; footer?: string[] }

/** A figure shown large: "Received" — "$12,340.00". */
export type ReportStat = { label: string; value: string }

/** A part of the report under a heading: figures, paragraphs and tables, in that order. */
export type ReportSection = { heading: string; stats?: ReportStat[]; paragraphs?: string[]; tables?: ReportTable[] }

export type ReportDocument = {
	/** The report's name: "Tax year 2026", "Report: Jan 1 – Dec 31, 2026". */
	title: string
	/** The organization's name, under the title. */
	organizationName: string
	/** A line under the title: the range, the state, when it was made. */
	subtitle?: string
	sections: ReportSection[]
	/** Said at the end in small type (e.g. "This is not tax advice."). */
	disclaimer?: string
	/** The footer's page label, e.g. (2, 5) => "Page 2 of 5". */
	pageLabel: (page: number, pages: number) => string
	/** The document's language, for the PDF's metadata. */
	language: 'en' | 'es' | 'pt-BR'
}
