import { useEffect, useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useNavigation } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { useHydrated } from '#app/lib/use-hydrated.ts'

/** The import screens' heading and their links to one another and back to the transactions. */
export function ImportHeader({
	title,
	description,
	current,
}: {
	title: string
	description?: string
	current: 'import' | 'history' | 'review' | 'preview'
}) {
	const { t } = useTranslation('imports')
	const links = [
		['import', '/app/transactions/import', t('links.import')],
		['history', '/app/transactions/import/history', t('links.history')],
		['review', '/app/transactions/import/review', t('links.review')],
	] as const
	return (
		<div className="grid gap-2">
			<h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
			{description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
			<nav aria-label={t('title')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
				<Link to="/app/transactions" className="text-primary underline-offset-4 hover:underline">
					{t('links.transactions')}
				</Link>
				{links
					.filter(([key]) => key !== current)
					.map(([key, to, label]) => (
						<Link key={key} to={to} className="text-primary underline-offset-4 hover:underline">
							{label}
						</Link>
					))}
			</nav>
		</div>
	)
}

type Progress = { phase: 'reading' | 'checking' | 'committing' | 'done'; share: number } | null

/**
 * With JavaScript, while this page's form posts: a bar fed by the server's progress of the
 * import (polled by the form's token). Without JavaScript nothing renders; the next page
 * appears when the work is done.
 */
export function ImportProgress({ token, intent }: { token: string; intent: string }) {
	const { t } = useTranslation('imports')
	const navigation = useNavigation()
	const submission = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent ? navigation.formData : undefined
	const active = Boolean(token) && submission !== undefined
	// The progress of this submission only (a previous one's is not shown).
	const [polled, setPolled] = useState<{ of: FormData; progress: Progress } | null>(null)
	const progress = polled && polled.of === submission ? polled.progress : null
	useEffect(() => {
		if (!submission || !token) return
		let stopped = false
		const poll = async () => {
			try {
				const response = await fetch(`/app/transactions/import/progress/${token}`, { headers: { accept: 'application/json' } })
				if (!stopped && response.ok) setPolled({ of: submission, progress: (await response.json()) as Progress })
			} catch {
				// The next poll tries again.
			}
		}
		const timer = setInterval(() => void poll(), 300)
		void poll()
		return () => {
			stopped = true
			clearInterval(timer)
		}
	}, [submission, token])
	if (!active) return null
	const phase = progress?.phase ?? (intent === 'commit' ? 'committing' : 'reading')
	// Reading and committing go chunk by chunk, with their share done; checking is one step.
	const percent = phase === 'reading' || (phase === 'committing' && progress) ? Math.round((progress?.share ?? 0) * 100) : null
	const text =
		phase === 'reading'
			? t('progress.reading', { percent: percent ?? 0 })
			: phase === 'committing'
				? percent === null
					? t('progress.committing')
					: t('progress.committingShare', { percent })
				: t('progress.checking')
	return (
		<div className="grid gap-1" role="status" aria-live="polite">
			<progress
				className="h-2 w-full max-w-md accent-primary"
				aria-label={t('progress.label')}
				data-testid="import-progress"
				{...(percent === null ? {} : { value: percent, max: 100 })}
			/>
			<p className="text-sm text-muted-foreground">{text}</p>
		</div>
	)
}

/** A random token for the progress of one post, made in the browser after hydration. */
export function useProgressToken() {
	const hydrated = useHydrated()
	const [token] = useState(() => crypto.randomUUID())
	// Empty in the server's HTML (and so without JavaScript): no progress is tracked then.
	return hydrated ? token : ''
}
