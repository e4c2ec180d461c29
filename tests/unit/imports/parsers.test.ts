import { describe, expect, test } from 'vitest'
import {
	delimiterOf,
	parseImportFile,
	parseImportFileAsync,
	parseLooseDate,
	parseSignedAmount,
	type ParsedRow,
} from '#app/.server/payments/imports/parsers/index.ts'
import { readZelle } from '#app/.server/payments/imports/parsers/banks.ts'
import { guessMapping } from '#app/lib/imports.ts'
import {
	BOFA,
	BOFA_REAL,
	CAPITAL_ONE,
	CASHAPP,
	CHASE,
	CHASE_2016,
	CHASE_REAL,
	GENERIC,
	NAVY_FEDERAL,
	PAYPAL,
	PAYPAL_FR,
	PAYPAL_PT,
	PAYPAL_SHORT,
	TD_BANK,
	TRUIST,
	US_BANK,
	VENMO,
	VENMO_RESAVED,
	WELLS_FARGO,
} from './fixtures.ts'

function parsed(text: string, mapping?: Parameters<typeof parseImportFile>[1]) {
	const result = parseImportFile(text, mapping)
	if (!result.ok) throw new Error(`not parsed: ${result.error}`)
	return result
}
const payments = (rows: ParsedRow[]) => rows.flatMap((r) => (r.kind === 'payment' ? [r.payment] : []))
const others = (rows: ParsedRow[]) => rows.flatMap((r) => (r.kind === 'payment' ? [] : [[r.line, r.kind, r.reason]]))

describe('Venmo statement', () => {
	test('preamble, blank first column, balance and disclaimer rows are passed over; only + rows are received', () => {
		const result = parsed(VENMO)
		expect(result.source).toBe('venmo')
		expect(payments(result.rows)).toEqual([
			{
				date: '2026-03-01',
				amount: '1250.00',
				fee: null,
				payer: 'Ana Silva',
				payerEmail: null,
				description: 'Yoga class',
				externalId: '3921234567890123456',
				method: 'Venmo',
				provider: 'venmo',
			},
			// A charge: the payer is in To.
			expect.objectContaining({ date: '2026-03-02', amount: '80.00', payer: 'Bruno Costa', externalId: '3921234567890123457' }),
		])
		expect(others(result.rows)).toEqual([
			[7, 'ignored', 'outgoing'],
			[8, 'ignored', 'outgoing'],
			[9, 'failed', 'amountInvalid'],
			[10, 'failed', 'dateInvalid'],
		])
	})

	test('the 19-digit ID is kept exactly (beyond a JavaScript number)', () => {
		expect(payments(parsed(VENMO).rows)[0]!.externalId).toBe('3921234567890123456')
		expect(String(Number('3921234567890123456'))).not.toBe('3921234567890123456')
	})
})

describe('PayPal activity download', () => {
	test('BOM and quoted columns; gross and fee; memo rows skipped; other currencies refused per row', () => {
		const result = parsed(PAYPAL)
		expect(result.source).toBe('paypal')
		expect(payments(result.rows)).toEqual([
			{
				date: '2026-03-01',
				amount: '1250.00',
				fee: '36.55',
				payer: 'Ana Silva',
				payerEmail: 'ana@example.com',
				description: 'Workshop',
				externalId: '8AB12345CD6789012',
				method: 'PayPal',
				provider: 'paypal',
			},
		])
		expect(others(result.rows)).toEqual([
			[3, 'ignored', 'outgoing'],
			[4, 'ignored', 'memo'],
			[5, 'failed', 'currency'],
			[6, 'failed', 'amountInvalid'],
		])
	})
})

describe('Cash App report', () => {
	test('$250 and -$2.90 amounts, EST/EDT dates, only Received P2P rows', () => {
		const result = parsed(CASHAPP)
		expect(result.source).toBe('cashapp')
		expect(payments(result.rows)).toEqual([
			expect.objectContaining({
				date: '2026-03-01',
				amount: '250.00',
				fee: null,
				payer: 'Ana Silva',
				externalId: 'rmq8z2k',
				method: 'CashApp',
			}),
			expect.objectContaining({
				date: '2026-03-15',
				amount: '40.50',
				fee: '2.90',
				payer: 'Bruno Costa',
				description: null,
				externalId: 'rmq8z2l',
			}),
		])
		expect(others(result.rows)).toEqual([
			[4, 'ignored', 'outgoing'],
			[5, 'ignored', 'notReceived'],
			[6, 'failed', 'dateInvalid'],
		])
	})

	test('a received payment whose status is PAYMENT DEPOSITED is received; pending or failed ones are not', () => {
		const [header] = CASHAPP.split('\n')
		const file = [
			header,
			'rq1,2026-03-01 10:00:00 EST,Received P2P,USD,$30,$0,$30,,,,PAYMENT DEPOSITED,,Eva Lima,Visa Debit 1234',
			'rq2,2026-03-01 11:00:00 EST,Received P2P,USD,$31,$0,$31,,,,PENDING,,Eva Lima,Visa Debit 1234',
			'rq3,2026-03-01 12:00:00 EST,Received P2P,USD,$32,$0,$32,,,,FAILED,,Eva Lima,Visa Debit 1234',
		].join('\n')
		const result = parsed(file)
		expect(payments(result.rows).map((p) => p.externalId)).toEqual(['rq1'])
		expect(others(result.rows)).toEqual([
			[3, 'ignored', 'notCompleted'],
			[4, 'ignored', 'notCompleted'],
		])
	})
})

describe('Chase export', () => {
	test('trailing comma; QUICKPAY_CREDIT rows are Zelle with the transaction number; incoming wires are Wire Transfer', () => {
		const result = parsed(CHASE)
		expect(result.source).toBe('chase')
		expect(payments(result.rows)).toEqual([
			expect.objectContaining({
				date: '2026-03-01',
				amount: '250.00',
				payer: 'ANA SILVA',
				externalId: '17283947562',
				method: 'Zelle',
				provider: 'chase',
			}),
			expect.objectContaining({
				date: '2026-03-03',
				amount: '2000.00',
				payer: 'ACME CORP',
				externalId: '0303ABC',
				method: 'Wire Transfer',
			}),
			expect.objectContaining({ date: '2026-03-05', amount: '45.00', payer: 'BRUNO COSTA', externalId: '17283948000' }),
			expect.objectContaining({ date: '2026-03-05', amount: '45.00', payer: 'BRUNO COSTA', externalId: '17283948001' }),
		])
		expect(others(result.rows)).toEqual([
			[3, 'ignored', 'outgoing'],
			[5, 'ignored', 'outgoing'],
		])
	})
})

describe('Bank of America export', () => {
	test('the summary block before the header is passed over; Zelle payer, note and Conf# are read', () => {
		const result = parsed(BOFA)
		expect(result.source).toBe('bofa')
		expect(payments(result.rows)).toEqual([
			expect.objectContaining({
				date: '2026-03-02',
				amount: '250.00',
				payer: 'ANA SILVA',
				description: 'Lessons',
				externalId: 'ab12cd34e',
				method: 'Zelle',
				provider: 'bofa',
			}),
			expect.objectContaining({ date: '2026-03-04', amount: '60.00', payer: 'CARLA DIAS', externalId: 'T0PQ9R' }),
		])
		expect(others(result.rows)).toEqual([
			[8, 'ignored', 'summary'],
			[10, 'ignored', 'outgoing'],
			[12, 'ignored', 'notReceived'],
		])
	})
})

describe('generic CSV with a mapping', () => {
	const mapping = {
		date: 'Posted',
		amount: 'Value',
		payer: 'who',
		externalId: 'Ref',
		description: 'Memo',
		method: 'Zelle' as const,
		dateOrder: 'mdy' as const,
	}

	test('without a mapping the headers are returned for the user to map', () => {
		expect(parseImportFile(GENERIC)).toEqual({ ok: false, error: 'mappingRequired', headers: ['Posted', 'Who', 'Value', 'Ref', 'Memo'] })
	})

	test('columns are found by name in any case; negative rows are outgoing; a row without payer fails', () => {
		const result = parsed(GENERIC, mapping)
		expect(result.source).toBe('generic')
		expect(payments(result.rows)).toEqual([
			{
				date: '2026-03-01',
				amount: '100.00',
				fee: null,
				payer: 'Ana Silva',
				payerEmail: null,
				description: 'Lesson',
				externalId: 'A-1',
				method: 'Zelle',
				provider: 'csv',
			},
			expect.objectContaining({ payer: 'Carla Dias', externalId: null, description: 'Cash' }),
		])
		expect(others(result.rows)).toEqual([
			[3, 'ignored', 'outgoing'],
			[4, 'failed', 'payerMissing'],
		])
	})

	test('a description keeps up to 2,000 characters, the limit of the transactions form and the database', () => {
		const memo = (n: number) => 'm'.repeat(n)
		const file = `Posted,Who,Value,Ref,Memo\n03/01/2026,Ana Silva,100.00,A-1,${memo(2000)}\n03/02/2026,Bruno Costa,50.00,A-2,${memo(5000)}\n`
		expect(payments(parsed(file, mapping).rows).map((p) => p.description?.length)).toEqual([2000, 2000])
	})

	test('a mapping naming a column the file lacks is refused', () => {
		expect(parseImportFile(GENERIC, { ...mapping, payer: 'Name' })).toMatchObject({ ok: false, error: 'mappingInvalid' })
	})

	test('a file saved with semicolons and decimal commas (Excel in es and pt-BR) is read the same way', () => {
		const semicolons = [
			'Fecha;Importe;Pagador;Ref;Concepto',
			'2026-03-01;1.250,50;"Silva, Ana";A-1;Clase',
			'2026-03-02;80,5;Bruno Costa;;',
			'2026-03-03;-45,00;Banco;;Comisión',
		].join('\r\n')
		expect(parseImportFile(semicolons)).toEqual({
			ok: false,
			error: 'mappingRequired',
			headers: ['Fecha', 'Importe', 'Pagador', 'Ref', 'Concepto'],
		})
		const result = parsed(semicolons, {
			date: 'Fecha',
			amount: 'Importe',
			payer: 'Pagador',
			externalId: 'Ref',
			description: 'Concepto',
			method: 'Zelle',
			dateOrder: 'mdy',
		})
		expect(payments(result.rows).map((p) => [p.payer, p.amount, p.description])).toEqual([
			['Silva, Ana', '1250.50', 'Clase'],
			['Bruno Costa', '80.50', null],
		])
		expect(others(result.rows)).toEqual([[4, 'ignored', 'outgoing']])
	})

	test('a mapping says whether slashed dates are month or day first; a day that cannot be fails, never swaps', () => {
		const file = [
			'Fecha;Importe;Pagador',
			'05/11/2026;10,00;Ana',
			'20/11/2026;20,00;Bruno',
			'3.4.26;30,00;Carla',
			'2026-11-07;40,00;Dora',
		].join('\n')
		const base = { date: 'Fecha', amount: 'Importe', payer: 'Pagador', externalId: '', description: '', method: 'Zelle' } as const
		const dayFirst = parsed(file, { ...base, dateOrder: 'dmy' })
		expect(payments(dayFirst.rows).map((p) => [p.payer, p.date])).toEqual([
			['Ana', '2026-11-05'],
			['Bruno', '2026-11-20'],
			['Carla', '2026-04-03'],
			['Dora', '2026-11-07'],
		])
		const monthFirst = parsed(file, { ...base, dateOrder: 'mdy' })
		expect(payments(monthFirst.rows).map((p) => [p.payer, p.date])).toEqual([
			['Ana', '2026-05-11'],
			['Carla', '2026-03-04'],
			['Dora', '2026-11-07'],
		])
		expect(others(monthFirst.rows)).toEqual([[3, 'failed', 'dateInvalid']])
	})

	test('commas inside quoted fields or notes do not make a comma file a semicolon one, nor the reverse', () => {
		expect(delimiterOf('Posted,Who,Value\n2026-03-01,"A; B; C; D",1.00')).toBe(',')
		expect(delimiterOf('Fecha;Importe;Pagador\n2026-03-01;1,50;"Silva, Ana"')).toBe(';')
	})
})

describe('bad files', () => {
	test.each([
		['', 'empty'],
		['\n\n  \n', 'empty'],
		['%PDF-1.4\0\0binary', 'notCsv'],
		['just one line of prose', 'notCsv'],
		['"unterminated,quote\nx,y', 'notCsv'],
	])('%j is refused as %s', (text, error) => {
		expect(parseImportFile(text)).toMatchObject({ ok: false, error })
	})

	test('a known header without data rows is refused as having no rows', () => {
		expect(parseImportFile(CASHAPP.split('\n')[0]!)).toMatchObject({ ok: false, error: 'noRows' })
	})

	test('an unknown header without data rows is refused as having no rows, before any mapping is asked', () => {
		expect(parseImportFile('Posted,Who,Value\n')).toMatchObject({ ok: false, error: 'noRows' })
		expect(parseImportFile('Posted,Who,Value\n\n  \n')).toMatchObject({ ok: false, error: 'noRows' })
	})
})

describe('amounts and dates as the exports write them', () => {
	test.each([
		['+ $1,250.00', { sign: 1, value: '1250.00' }],
		['- $45.00', { sign: -1, value: '45.00' }],
		['$250', { sign: 1, value: '250.00' }],
		['-$2.90', { sign: -1, value: '2.90' }],
		['(45.00)', { sign: -1, value: '45.00' }],
		['1,25', { sign: 1, value: '1.25' }],
		['-1.250,00', { sign: -1, value: '1250.00' }],
		['12.345', null],
		['1.2345,00', null],
		['$', null],
	])('%s', (text, expected) => {
		expect(parseSignedAmount(text)).toEqual(expected)
	})

	test.each([
		['2026-03-01T14:22:05', '2026-03-01'],
		['2026-03-01 23:30:00 EDT', '2026-03-01'],
		['3/1/26', '2026-03-01'],
		['03/01/2026', '2026-03-01'],
		['02/30/2026', null],
		['yesterday', null],
	])('%s', (text, expected) => {
		expect(parseLooseDate(text)).toBe(expected)
	})
})

describe('reading in chunks (large files)', () => {
	const mapping = {
		date: 'Posted',
		amount: 'Value',
		payer: 'Who',
		externalId: 'Ref',
		description: 'Memo',
		method: 'Zelle' as const,
		dateOrder: 'mdy' as const,
	}
	const bigGeneric = [
		'Posted,Who,Value,Ref,Memo',
		...Array.from({ length: 3000 }, (_, i) => `2026-03-01,"Payer, ${i % 7}",${i + 1}.00,R${i},"note ""${i}"""`),
	].join('\n')
	const bigVenmo = [
		VENMO.trimEnd(),
		...Array.from(
			{ length: 3000 },
			(_, i) =>
				`,${4000000000000000000n + BigInt(i)},2026-03-01T10:00:00,Payment,Complete,"Multi\nline ${i}",Ana Silva,Owner,+ $1.00,,0,,0,,,Venmo balance,,,,Venmo,,`,
		),
	].join('\n')

	test.each([
		['venmo', VENMO, null],
		['paypal', PAYPAL, null],
		['cashapp', CASHAPP, null],
		['chase', CHASE, null],
		['bofa', BOFA, null],
		['generic', GENERIC, mapping],
		['generic without mapping', GENERIC, null],
		['large generic', bigGeneric, mapping],
		['large generic without mapping', bigGeneric, null],
		['large venmo with multi-line notes', bigVenmo, null],
		['not csv', '"a,b\n1', null],
	])('%s: the same rows as reading at once', async (_, text, m) => {
		const shares: number[] = []
		const rows: ParsedRow[] = []
		const layouts: string[] = []
		let drains = 0
		const sink = {
			layout: (source: string) => layouts.push(source),
			row: (row: ParsedRow) => rows.push(row),
			drain: async () => void drains++,
		}
		const chunked = await parseImportFileAsync(text, m, sink, (share) => shares.push(share))
		const whole = parseImportFile(text, m)
		if (whole.ok) {
			expect(chunked).toEqual({ ok: true, source: whole.source, headers: whole.headers, rows: whole.rows.length })
			expect(rows).toEqual(whole.rows)
			expect(layouts).toEqual([whole.source])
		} else {
			expect(chunked).toEqual(whole)
		}
		// The sink is given a turn between chunks of a large file, where it writes what it holds.
		if (text.length > 256 * 1024) expect(drains).toBeGreaterThan(1)
		expect(shares.every((s, i) => s >= 0 && s <= 1 && (i === 0 || s >= shares[i - 1]!))).toBe(true)
	})
})

describe('real exports (issue 47)', () => {
	test('Bank of America with unescaped quotes is read row by row; a line past repair is reported, not the file refused', () => {
		const result = parsed(BOFA_REAL)
		expect(result.source).toBe('bofa')
		expect(payments(result.rows).map((p) => [p.payer, p.amount, p.externalId, p.description])).toEqual([
			['NINA ROCHA', '80.00', 'k7x2m9q4a', 'Piano lesson'],
			// 2022: "Zelle Transfer Conf# ID; NAME", only the sign says it was received.
			['OTTO VALE', '45.00', 'q1w2e3r4t', 'Zelle Transfer Conf# q1w2e3r4t; OTTO VALE'],
			['PAULA MELO', '60.00', 's5d6f7g8h', 'Zelle Scheduled payment from PAULA MELO Conf# s5d6f7g8h'],
			// The id pushed into the memo by a stray quote is still the id.
			['RUI COSTA', '25.00', 'm3n4b5v6c', 'June'],
		])
		expect(others(result.rows)).toEqual([
			[7, 'ignored', 'outgoing'],
			[10, 'failed', 'unreadable'],
			[11, 'ignored', 'outgoing'],
		])
	})

	test('a file of which most lines cannot be read is still refused as not CSV', () => {
		const broken = Array.from({ length: 30 }, (_, i) => `01/0${(i % 9) + 1}/2022,"Zelle payment from X "Y,1.00,2.00`)
		expect(parseImportFile(['Date,Description,Amount,Running Bal.', ...broken].join('\n'))).toMatchObject({ ok: false, error: 'notCsv' })
	})

	test('Chase: PARTNERFI_TO_CHASE Zelle, alphanumeric ids, 7/8/19 dates and 15 amounts; other PARTNERFI lines are transfers', () => {
		const result = parsed(CHASE_REAL)
		expect(result.source).toBe('chase')
		expect(payments(result.rows).map((p) => [p.date, p.payer, p.amount, p.externalId, p.method])).toEqual([
			['2019-07-08', 'LIA TORRES', '15.00', 'WFCT0ABC1DEF', 'Zelle'],
			['2019-07-09', 'IVO NUNES', '40.50', 'VSATAH60YQFR', 'Zelle'],
		])
		expect(others(result.rows)).toEqual([
			[4, 'ignored', 'notReceived'],
			[5, 'ignored', 'outgoing'],
		])
	})

	test('Chase checking before 2016 (Type,Post Date,…): credit lines that say Zelle are Zelle payments', () => {
		const result = parsed(CHASE_2016)
		expect(result.source).toBe('chase')
		expect(payments(result.rows).map((p) => [p.date, p.payer, p.externalId])).toEqual([['2016-08-03', 'VERA LOPES', '5512345678']])
		expect(others(result.rows)).toEqual([
			[3, 'ignored', 'outgoing'],
			[4, 'ignored', 'notReceived'],
		])
	})

	test('PayPal short download: Amount and Receipt ID; transfers from the bank are not payments', () => {
		const result = parsed(PAYPAL_SHORT)
		expect(result.source).toBe('paypal')
		expect(payments(result.rows).map((p) => [p.payer, p.amount, p.externalId])).toEqual([
			['Maya Reis', '35.00', null],
			['Maya Reis', '20.00', 'R-77'],
		])
		expect(others(result.rows)).toEqual([
			[4, 'ignored', 'outgoing'],
			[5, 'ignored', 'notReceived'],
		])
	})

	test('PayPal in French and Brazilian Portuguese: day-first dates, decimal commas, translated statuses and impacts', () => {
		const fr = parsed(PAYPAL_FR)
		expect(fr.source).toBe('paypal')
		expect(payments(fr.rows)).toEqual([
			expect.objectContaining({
				date: '2026-03-05',
				amount: '1250.00',
				fee: '36.55',
				payer: 'Léa Martin',
				externalId: '5FR12345AB6789012',
			}),
		])
		expect(others(fr.rows)).toEqual([[3, 'ignored', 'outgoing']])
		const pt = parsed(PAYPAL_PT)
		expect(payments(pt.rows)).toEqual([
			expect.objectContaining({ date: '2026-03-07', amount: '80.00', fee: '3.20', payer: 'Caio Prado', externalId: '7PT12345AB6789012' }),
		])
		expect(others(pt.rows)).toEqual([[3, 'ignored', 'memo']])
	})

	test('Venmo re-saved by a spreadsheet: a rounded id is never an id, plain amounts keep their sign, renamed columns are read', () => {
		const result = parsed(VENMO_RESAVED)
		expect(result.source).toBe('venmo')
		expect(payments(result.rows).map((p) => [p.date, p.payer, p.amount, p.externalId])).toEqual([
			['2026-03-01', 'Ana Silva', '25.00', null],
			['2026-03-03', 'Carla Dias', '30.00', '3921234567890123999'],
		])
		expect(others(result.rows)).toEqual([[4, 'ignored', 'outgoing']])
	})

	test.each([
		[
			'wellsfargo',
			WELLS_FARGO,
			['2026-03-02', 'DIANA PAZ', '150.00', 'WFCT0XYZ9876'],
			[
				[2, 'ignored', 'outgoing'],
				[3, 'ignored', 'notReceived'],
			],
		],
		['capitalone', CAPITAL_ONE, ['2026-06-04', 'FABIO LIMA', '65.00', null], [[3, 'ignored', 'outgoing']]],
		['td', TD_BANK, ['2026-03-05', 'HELENA VAZ', '90.00', null], [[3, 'ignored', 'outgoing']]],
		['navyfederal', NAVY_FEDERAL, ['2026-03-07', 'IRIS LEAL', '55.00', null], [[3, 'ignored', 'outgoing']]],
		['truist', TRUIST, ['2026-03-09', 'KARLA MOTA', '70.00', null], [[3, 'ignored', 'outgoing']]],
		['usbank', US_BANK, ['2026-03-11', 'LUCAS MAIA', '95.00', null], [[3, 'ignored', 'outgoing']]],
	])('%s: a received Zelle line is a Zelle payment; sent and other lines are passed over', (source, file, payment, rest) => {
		const result = parsed(file)
		expect(result.source).toBe(source)
		expect(payments(result.rows).map((p) => [p.date, p.payer, p.amount, p.externalId])).toEqual([payment])
		expect(payments(result.rows)[0]).toMatchObject({ method: 'Zelle', provider: source })
		expect(others(result.rows)).toEqual(rest)
	})

	test.each([
		['Zelle payment from ANA SILVA for "Rent"; Conf# ab12cd', { direction: 'in', payer: 'ANA SILVA', memo: 'Rent', id: 'ab12cd' }],
		['Zelle Transfer Conf# ab12cd; ANA SILVA', { direction: null, payer: 'ANA SILVA', memo: '', id: 'ab12cd' }],
		['Zelle payment to LANDLORD Conf# zz99', { direction: 'out', payer: 'LANDLORD', memo: '', id: 'zz99' }],
		['ZELLE FROM ANA SILVA ON 03/01 REF # WFCT0ABC12', { direction: 'in', payer: 'ANA SILVA', memo: '', id: 'WFCT0ABC12' }],
		['OTHER BANK DES:ZELLE ID:ANA SILVA INDN:OWNER CO ID:123 PPD', { direction: null, payer: 'ANA SILVA', memo: '', id: '' }],
		['PAYROLL DEPOSIT', null],
	])('the Zelle wording %j', (text, expected) => {
		expect(readZelle(text)).toEqual(expected)
	})

	test.each([
		['$+1000', { sign: 1, value: '1000.00' }],
		['($42)', { sign: -1, value: '42.00' }],
		['15', { sign: 1, value: '15.00' }],
	])('amount %s', (text, expected) => {
		expect(parseSignedAmount(text)).toEqual(expected)
	})

	test('reading in chunks gives the same rows as reading at once, for a file the tolerant pass reads', async () => {
		const big = [
			BOFA_REAL.trimEnd(),
			...Array.from({ length: 3000 }, (_, i) => `02/01/2022,"Zelle payment from A B for "x${i}"; Conf# c${i}zzzz","1.00","2.00"`),
		].join('\n')
		for (const text of [BOFA_REAL, big]) {
			const rows: ParsedRow[] = []
			const chunked = await parseImportFileAsync(text, null, { layout: () => undefined, row: (r) => rows.push(r) })
			const whole = parsed(text)
			expect(chunked).toEqual({ ok: true, source: 'bofa', headers: whole.headers, rows: whole.rows.length })
			expect(rows).toEqual(whole.rows)
		}
	})
})

describe('the mapping form pre-selects columns by their meaning', () => {
	test.each([
		[['Posted', 'Who', 'Value', 'Ref', 'Memo'], { date: 'Posted', amount: 'Value', payer: 'Who', externalId: 'Ref', description: 'Memo' }],
		[
			['Fecha', 'Importe', 'Pagador', 'Concepto'],
			{ date: 'Fecha', amount: 'Importe', payer: 'Pagador', externalId: '', description: 'Concepto' },
		],
		[['Data', 'Valor', 'Nome', 'Descrição'], { date: 'Data', amount: 'Valor', payer: 'Nome', externalId: '', description: 'Descrição' }],
		[
			['Fecha valor', 'Monto (USD)', 'Nombre', 'Descripción'],
			{ date: 'Fecha valor', amount: 'Monto (USD)', payer: 'Nombre', externalId: '', description: 'Descripción' },
		],
		[['Col A', 'Col B'], { date: '', amount: '', payer: '', externalId: '', description: '' }],
	])('%j', (headers, expected) => {
		expect(guessMapping(headers)).toEqual(expected)
	})
})
