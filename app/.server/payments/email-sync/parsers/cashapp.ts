import type { NoticeParser } from './types.ts'
import { memo, money, name } from './common.ts'

/** Cash App (cash@square.com): "NAME sent you $40", optionally "for NOTE"; "Identifier #…" as id. */
export const cashApp: NoticeParser = {
	issuer: 'cashapp',
	method: 'CashApp',
	domains: ['square.com', 'cash.app'],
	parse(notice) {
		const subject = notice.subject
		if (/^You (sent|paid)\b/i.test(subject)) return 'outgoing'
		if (/\brequest(ed|s)?\b/i.test(subject)) return 'request'
		const match = /^(.+?) sent you \$([\d,]+(?:\.\d{2})?)(?:\s+for\s+(.+))?$/i.exec(subject)
		if (!match) return /sent you|received/i.test(subject) ? 'unreadable' : 'other'
		const amount = money(match[2])
		const payer = name(match[1])
		if (!amount || !payer) return 'unreadable'
		const id = /Identifier\s*#?\s*([A-Z0-9]{4,40})/i.exec(notice.text)?.[1] ?? null
		return { amount, payer, memo: memo(match[3]), externalId: id ? id.toUpperCase() : null }
	},
}
