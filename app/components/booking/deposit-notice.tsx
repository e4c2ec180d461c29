import { useState } from 'react'
import type { DepositView } from '#app/.server/booking/public/mail.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * A booking's deposit on the visitor's booked and manage page (docs/product.md, Deposits and
 * prepayment). Awaited: the amount, the code to put in the payment's memo (large, monospace, one
 * tap selects it; with JavaScript, a Copy button too), the deadline, and each way to pay the
 * organization offers (or "pay them directly" when it offers none). Received: one line saying so.
 */
export function DepositNotice({ deposit, organization }: { deposit: DepositView; organization: string }) {
	const { t } = useTranslation('book')
	if (deposit.status === 'paid') {
		return (
			<p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm font-medium text-green-900">
				{t('deposit.paid', { amount: deposit.amount })}
			</p>
		)
	}
	if (deposit.status !== 'open') return null
	return (
		<section aria-labelledby="deposit-title" className="grid gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
			<h2 id="deposit-title" className="text-lg font-semibold">
				{t('deposit.awaiting')}
			</h2>
			<p>{t('deposit.intro', { amount: deposit.amount })}</p>
			<div className="grid gap-1">
				<p id="deposit-code-label" className="text-sm font-medium">
					{t('deposit.codeLabel')}
				</p>
				<div className="flex flex-wrap items-center gap-3">
					<code
						aria-describedby="deposit-code-label"
						data-testid="deposit-code"
						className="rounded-md border border-amber-400 bg-white px-4 py-2 font-mono text-3xl font-bold tracking-[0.2em] break-all select-all"
					>
						{deposit.code}
					</code>
					<CopyButton text={deposit.code} />
				</div>
				<p className="text-sm">{t('deposit.putInMemo')}</p>
			</div>
			{deposit.deadline ? <p className="font-medium">{t('deposit.deadline', { deadline: deposit.deadline })}</p> : null}
			{deposit.links.length ? (
				<div className="grid gap-2">
					<h3 className="font-medium">{t('deposit.howToPay')}</h3>
					<ul className="grid gap-2" aria-label={t('deposit.howToPay')}>
						{deposit.links.map((link) => (
							<li key={link.kind}>
								{link.href ? (
									<a
										href={link.href}
										target="_blank"
										rel="noreferrer"
										className="inline-flex min-h-11 items-center rounded-md border bg-white px-4 py-2 break-all underline-offset-2 hover:underline"
									>
										{t(`deposit.via.${link.kind}`, { handle: link.handle })}
									</a>
								) : (
									<span className="inline-flex min-h-11 items-center rounded-md border bg-white px-4 py-2 break-all">
										{t(`deposit.via.${link.kind}`, { handle: link.handle })}
									</span>
								)}
							</li>
						))}
					</ul>
				</div>
			) : (
				<p>{t('deposit.payDirectly', { organization })}</p>
			)}
		</section>
	)
}

/** Copies the code once scripts run (without them, the code itself selects on one tap). */
function CopyButton({ text }: { text: string }) {
	const { t } = useTranslation('book')
	const hydrated = useHydrated()
	const [copied, setCopied] = useState(false)
	if (!hydrated) return null
	return (
		<button
			type="button"
			className="min-h-11 rounded-md border bg-white px-4 py-2 text-sm"
			onClick={() => {
				void navigator.clipboard.writeText(text).then(
					() => {
						setCopied(true)
						setTimeout(() => setCopied(false), 2000)
					},
					() => setCopied(false),
				)
			}}
		>
			<span aria-live="polite">{copied ? t('deposit.copied') : t('deposit.copy')}</span>
		</button>
	)
}
