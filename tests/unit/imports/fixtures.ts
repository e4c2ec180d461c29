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
