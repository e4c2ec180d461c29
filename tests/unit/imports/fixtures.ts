/** Synthetic export files in each real layout, with the quirks the parsers must survive. */

export const VENMO = [
	'Account Statement - (@studio-owner) ,,,,,,,,,,,,,,,,,,,,,',
	'Account Activity,,,,,,,,,,,,,,,,,,,,,',
	',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (tip),Amount (tax),Amount (fee),Tax Rate,Tax Exempt,Funding Source,Destination,Beginning Balance,Ending Balance,Statement Period Venmo Fees,Terminal Location,Year to Date Venmo Fees,Disclaimer',
	',,,,,,,,,,,,,,,,$100.00,,,,,',
	',3921234567890123456,2026-03-01T14:22:05,Payment,Complete,Yoga class,Ana Silva,Studio Owner,"+ $1,250.00",,0,,0,,,Venmo balance,,,,Venmo,,',
	',3921234567890123457,2026-03-02T09:00:00,Charge,Complete,March rent,Studio Owner,Bruno Costa,+ $80.00,,0,,0,,,Venmo balance,,,,Venmo,,',
	',3921234567890123458,2026-03-03T10:00:00,Payment,Complete,Supplies,Studio Owner,Shop Inc,- $45.00,,0,,0,,Venmo balance,,,,,Venmo,,',
	',3921234567890123459,2026-03-04T11:00:00,Standard Transfer,Issued,,,,- $500.00,,0,,0,,,Bank,,,,Venmo,,',
	',3921234567890123460,2026-03-05T12:00:00,Payment,Complete,Bad amount,Carla Dias,Studio Owner,+ $12.345,,0,,0,,,Venmo balance,,,,Venmo,,',
	',3921234567890123461,2026-02-30T12:00:00,Payment,Complete,Bad date,Carla Dias,Studio Owner,+ $10.00,,0,,0,,,Venmo balance,,,,Venmo,,',
	',,,,,,,,,,,,,,,,,$1,785.00,$0.00,,$0.00,',
	',,,,,,,,,,,,,,,,,,,,,"In case of errors or questions about your electronic transfers, contact us."',
	'',
].join('\n')

export const PAYPAL = `\uFEFF"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","From Email Address","To Email Address","Transaction ID","Item Title","Note","Balance","Balance Impact"
"03/01/2026","10:12:00","PST","Ana Silva","General Payment","Completed","USD","1,250.00","-36.55","1,213.45","ana@example.com","owner@example.com","8AB12345CD6789012","","Workshop","1,213.45","Credit"
"03/02/2026","11:00:00","PST","Office Shop","Express Checkout Payment","Completed","USD","-45.00","0.00","-45.00","owner@example.com","shop@example.com","1XY12345CD6789012","Paper","","1,168.45","Debit"
"03/02/2026","11:05:00","PST","Bruno Costa","General Authorization","Pending","USD","20.00","0.00","20.00","bruno@example.com","owner@example.com","2XY12345CD6789012","","","1,168.45","Memo"
"03/03/2026","09:00:00","PST","Eva Lima","General Payment","Completed","EUR","30.00","0.00","30.00","eva@example.com","owner@example.com","3XY12345CD6789012","","","1,168.45","Credit"
"03/04/2026","09:00:00","PST","Dora Reis","General Payment","Completed","USD","abc","0.00","0.00","dora@example.com","owner@example.com","4XY12345CD6789012","","","1,168.45","Credit"
`

export const CASHAPP = `Transaction ID,Date,Transaction Type,Currency,Amount,Fee,Net Amount,Asset Type,Asset Price,Asset Amount,Status,Notes,Name of sender/receiver,Account
rmq8z2k,2026-03-01 14:22:05 EST,Received P2P,USD,$250,$0,$250,,,,COMPLETE,Haircut,Ana Silva,Visa Debit 1234
rmq8z2l,2026-03-15 23:30:00 EDT,Received P2P,USD,$40.50,-$2.90,$37.60,,,,COMPLETE,,Bruno Costa,Visa Debit 1234
rmq8z2m,2026-03-16 08:00:00 EDT,Sent P2P,USD,-$20,$0,-$20,,,,COMPLETE,Lunch,Carla Dias,Visa Debit 1234
rmq8z2n,2026-03-17 08:00:00 EDT,Cash Card Debit,USD,-$5,$0,-$5,,,,COMPLETE,Coffee,Cafe,Visa Debit 1234
rmq8z2o,03/18 EDT,Received P2P,USD,$10,$0,$10,,,,COMPLETE,,Dora Reis,Visa Debit 1234
`

export const CHASE = `Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #
CREDIT,03/01/2026,"Zelle payment from ANA SILVA 17283947562",250.00,QUICKPAY_CREDIT,1500.00,,
DEBIT,03/02/2026,"Zelle payment to LANDLORD 17283947999",-1200.00,QUICKPAY_DEBIT,300.00,,
CREDIT,03/03/2026,"FEDWIRE CREDIT VIA: BANK OF X B/O: ACME CORP TRN: 0303ABC",2000.00,WIRE_INCOMING,2300.00,,
DEBIT,03/04/2026,"ATM WITHDRAWAL",-40.00,ATM,2260.00,,
CREDIT,03/05/2026,"Zelle payment from BRUNO COSTA 17283948000",45.00,QUICKPAY_CREDIT,2305.00,,
CREDIT,03/05/2026,"Zelle payment from BRUNO COSTA 17283948001",45.00,QUICKPAY_CREDIT,2350.00,,
`

export const BOFA = `Description,,Summary Amt.
Beginning balance as of 03/01/2026,,"1,000.00"
Total credits,,"2,560.00"
Total debits,,"-300.00"
Ending balance as of 03/31/2026,,"3,260.00"

Date,Description,Amount,Running Bal.
03/01/2026,Beginning balance as of 03/01/2026,,"1,000.00"
03/02/2026,"Zelle payment from ANA SILVA for ""Lessons""; Conf# ab12cd34e","250.00","1,250.00"
03/03/2026,"Zelle payment to LANDLORD Conf# zz99","-300.00","950.00"
03/04/2026,"Zelle payment from CARLA DIAS Conf# T0PQ9R","60.00","1,010.00"
03/05/2026,"PAYROLL DEPOSIT ACME","2,250.00","3,260.00"
`

export const GENERIC = `Posted,Who,Value,Ref,Memo
2026-03-01,Ana Silva,$100.00,A-1,Lesson
2026-03-02,Bruno Costa,-20.00,A-2,Refund
2026-03-03,,15.00,A-3,No payer
2026-03-03,Carla Dias,15.00,,Cash
`

/*
 * Real layouts of issue 47 (docs/product.md, Imports): each reproduces the header and the quirks of
 * a real export as public open-source importers read it (the source is named on each); every
 * name, id and amount is invented.
 */

/** Bank of America, its memo quotes unescaped (strict CSV refuses the line) and its Zelle wordings over the years. */
export const BOFA_REAL = `Description,,Summary Amt.
Beginning balance as of 01/01/2022,,"1,000.00"

Date,Description,Amount,Running Bal.
01/03/2022,"Zelle payment from NINA ROCHA for "Piano lesson"; Conf# k7x2m9q4a","80.00","1,080.00"
01/04/2022,"Zelle Transfer Conf# q1w2e3r4t; OTTO VALE","45.00","1,125.00"
01/05/2022,"Zelle Transfer Conf# z9y8x7w6v; LANDLORD LLC","-900.00","225.00"
01/06/2022,"Zelle Scheduled payment from PAULA MELO Conf# s5d6f7g8h","60.00","285.00"
01/07/2022,"Zelle payment from RUI COSTA for "June; Conf# m3n4b5v6c"","25.00","310.00"
01/08/2022,"Zelle payment from BROKEN "LINE,"12.00","322.00"
01/09/2022,"CHECKCARD 0107 CAFE","-4.50","317.50"
`

/** Chase: PARTNERFI_TO_CHASE from another bank, alphanumeric Zelle ids, a spreadsheet's 7/8/19 dates and 15 amounts. */
export const CHASE_REAL = `Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #
CREDIT,7/8/19,Zelle payment from LIA TORRES WFCT0ABC1DEF,15,PARTNERFI_TO_CHASE,115,,
CREDIT,7/9/19,Zelle payment from IVO NUNES VSATAH60YQFR,40.5,QUICKPAY_CREDIT,155.5,,
CREDIT,7/10/19,ONLINE TRANSFER FROM SAVINGS,100,PARTNERFI_TO_CHASE,255.5,,
DEBIT,7/11/19,Zelle payment to IVO NUNES JPM99ABC1234,-10,CHASE_TO_PARTNERFI,245.5,,
`

/** Chase checking before September 2016 (`Type,Post Date,…`: public Chase importers kept both headers). */
export const CHASE_2016 = `Type,Post Date,Description,Amount,Check or Slip #
CREDIT,08/03/2016,QuickPay with Zelle payment from VERA LOPES 5512345678,75.00,
DEBIT,08/04/2016,GROCERY STORE 123,-20.00,
CREDIT,08/05/2016,PAYROLL ACME,500.00,
`

/** PayPal's shorter activity download (no Gross, no Transaction ID). */
export const PAYPAL_SHORT = `"Date","Time","TimeZone","Name","Type","Status","Currency","Amount","Receipt ID","Balance"
"03/01/2026","10:00:00","PST","Maya Reis","General Payment","Completed","USD","35.00","","35.00"
"03/02/2026","11:00:00","PST","Maya Reis","Mobile Payment","Completed","USD","20.00","R-77","55.00"
"03/03/2026","12:00:00","PST","Bank Account","General Withdrawal","Completed","USD","-55.00","","0.00"
"03/04/2026","12:00:00","PST","","Bank Deposit to PP Account","Completed","USD","100.00","","100.00"
`

/** PayPal in French: day-first dates, decimal commas, a narrow no-break space grouping thousands. */
export const PAYPAL_FR = `\uFEFF"Date","Heure","Fuseau horaire","Nom","Type","État","Devise","Avant commission","Commission","Net","De l'adresse email","À l'adresse email","Numéro de transaction","Impact sur le solde"
"05/03/2026","10:12:00","CET","Léa Martin","Paiement général","Terminé","USD","1\u202F250,00","-36,55","1\u202F213,45","lea@example.com","owner@example.com","5FR12345AB6789012","Crédit"
"06/03/2026","11:00:00","CET","Boutique","Paiement Express Checkout","Terminé","USD","-45,00","0,00","-45,00","owner@example.com","shop@example.com","6FR12345AB6789012","Débit"
`

/** PayPal in Brazilian Portuguese. */
export const PAYPAL_PT = `"Data","Horário","Fuso horário","Nome","Tipo","Status","Moeda","Bruto","Tarifa","Líquido","Endereço de e-mail do remetente","Código da transação","Impacto no saldo"
"07/03/2026","09:00:00","BRT","Caio Prado","Pagamento geral","Concluído","USD","80,00","-3,20","76,80","caio@example.com","7PT12345AB6789012","Crédito"
"08/03/2026","09:00:00","BRT","Caio Prado","Autorização geral","Pendente","USD","10,00","0,00","10,00","caio@example.com","8PT12345AB6789012","Memorando"
`

/** Venmo re-saved by a spreadsheet: ids rounded to 3.18E+18, plain-number amounts, `Date` for `Datetime`. */
export const VENMO_RESAVED = `Account Statement - (@studio-owner),,,,,,,,
,ID,Date,Type,Status,Note,From,To,Amount (total)
,3.18E+18,3/1/2026 14:22,Payment,Complete,Yoga class,Ana Silva,Studio Owner,25
,3.18E+18,3/2/2026 9:00,Payment,Complete,Mat,Bruno Costa,Studio Owner,-12
,3921234567890123999,3/3/2026 9:00,Payment,Complete,Kept,Carla Dias,Studio Owner,30
`

/** Wells Fargo: no header line, "date","amount","*","check number","description" (ofxgen's and dataextractai's Wells Fargo readers). */
export const WELLS_FARGO = `"03/02/2026","150.00","*","","ZELLE FROM DIANA PAZ ON 03/02 REF # WFCT0XYZ9876"
"03/03/2026","-40.00","*","","ZELLE TO EMILIO SOL ON 03/03 REF # WFCT0XYZ9999"
"03/04/2026","1200.00","*","","DIRECT DEP ACME PAYROLL"
`

/** Capital One 360 checking (Venice's capitalone-bank import format). */
export const CAPITAL_ONE = `Account Number,Transaction Date,Transaction Amount,Transaction Type,Transaction Description,Balance
8401,06/04/26,65.00,Credit,Zelle money received from FABIO LIMA,1065.00
8401,06/05/26,20.00,Debit,Zelle money sent to GIL RAMOS,1045.00
`

/** TD Bank (ledgerly's CSV parser tests): separate Debit and Credit columns. */
export const TD_BANK = `Date,Bank RTN,Account Number,Transaction Type,Description,Debit,Credit,Check Number,Account Running Balance
2026-03-05,1,1234,CREDIT,ZELLE PAYMENT FROM HELENA VAZ,,90.00,,590.00
2026-03-06,1,1234,DEBIT,TOYOTA ACH RTL,740,,,
`

/** Navy Federal (a public NFCU download script): unsigned amounts with a Credit Debit Indicator. */
export const NAVY_FEDERAL = `Posting Date,Transaction Date,Amount,Credit Debit Indicator,type,Type Group,Reference,Instructed Currency,Currency Exchange Rate,Instructed Amount,Description,Category,Check Serial Number,Card Ending
03/08/2026,03/07/2026,55.00,Credit,Transfer,Transfer,REF123,,,,Zelle Transfer From IRIS LEAL,Transfer,,
03/08/2026,03/08/2026,55.00,Debit,Transfer,Transfer,REF124,,,,Zelle Transfer To JONAS REI,Transfer,,
`

/** Truist (public importer profiles of Truist downloads): `$+1000` and `($42)` amounts. */
export const TRUIST = `Posted Date,Transaction Date,Transaction Type,Check/Serial #,Description,Amount,Daily Posted Balance
03/10/2026,03/09/2026,Credit,,ZELLE FROM KARLA MOTA,$+70.00,$570.00
03/10/2026,03/10/2026,Debit,,ESTABLISHMENT DEBIT CARD PURCHASE,($42.00),$528.00
`

/** U.S. Bank ("Date","Transaction","Name","Memo","Amount": a budgeting app's U.S. Bank import tests). */
export const US_BANK = `"Date","Transaction","Name","Memo","Amount"
"2026-03-11","CREDIT","ZELLE INSTANT PMT FROM LUCAS MAIA","Lesson; 24431066181458859822737","95.00"
"2026-03-12","DEBIT","CHIPOTLE 3293 SANTA CLARA CA","24431066181458859822738; 05814","-15.91"
`
