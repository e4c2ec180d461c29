import { PlusIcon, SearchIcon, TagIcon, XIcon } from '#app/components/icons.tsx'
import { useEffect, useRef } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, useNavigation, useSubmit } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { getCategorySummaries, type CategorySummary } from '#app/.server/payments/analytics.ts'
import { requireMember } from '#app/.server/auth/session.ts'
import { categoryColors } from '#app/components/payments/category-badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Skeleton } from '#app/components/ui/skeleton.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { searchKey } from '#app/lib/utils.ts'
import type { Route } from './+types/categories'

/** Six placeholder cards while loading (docs/product.md, Categories). */
const SKELETON_CARDS = 6
const MAX_QUERY = 100

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('categories')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, MAX_QUERY)
	return { q, categories: await getCategorySummaries(user.userId, organization.id) }
}

export default function Categories({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation(['categories', 'common', 'reports'])
	const navigation = useNavigation()
	const loading = navigation.state === 'loading' && navigation.location.pathname === '/app/categories'
	// The search matches a category's name as the reader sees it, blind to case and accents.
	const needle = searchKey(loaderData.q)
	const shown = needle
		? loaderData.categories.filter((c) => searchKey(t(`reports:category.${c.category}`)).includes(needle))
		: loaderData.categories
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="flex flex-wrap items-end justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('common:nav.categories')}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				<Button asChild>
					<Link to="/app/transactions?edit=1&add=1">
						<PlusIcon aria-hidden="true" />
						{t('addTransaction')}
					</Link>
				</Button>
			</div>
			<SearchForm q={loaderData.q} />
			<section aria-label={t('results')} aria-busy={loading}>
				{loading ? (
					<div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" role="status" aria-label={t('loading')}>
						{Array.from({ length: SKELETON_CARDS }, (_, i) => (
							<Skeleton key={i} className="h-36 rounded-xl" data-testid="category-skeleton" />
						))}
					</div>
				) : shown.length === 0 ? (
					<p className="rounded-xl border border-dashed p-10 text-center text-muted-foreground">{t('empty')}</p>
				) : (
					<ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
						{shown.map((c) => (
							<li key={c.category}>
								<CategoryCard summary={c} />
							</li>
						))}
					</ul>
				)}
			</section>
		</div>
	)
}

function SearchForm({ q }: { q: string }) {
	const { t } = useTranslation('categories')
	const submit = useSubmit()
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	const input = useRef<HTMLInputElement>(null)
	useEffect(() => () => clearTimeout(timer.current), [])
	// A search made elsewhere (Clear, back and forward) shows in the box, unless the user is typing.
	useEffect(() => {
		if (input.current && document.activeElement !== input.current) input.current.value = q
	}, [q])
	return (
		<Form method="get" role="search" className="flex max-w-md items-center gap-2">
			<div className="relative flex-1">
				<SearchIcon
					className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
					aria-hidden="true"
				/>
				<Input
					ref={input}
					type="search"
					name="q"
					defaultValue={q}
					maxLength={MAX_QUERY}
					placeholder={t('search.placeholder')}
					aria-label={t('search.label')}
					className="pl-9"
					onChange={(event) => {
						// With JavaScript, the results follow the typing (one history entry).
						const form = event.currentTarget.form
						clearTimeout(timer.current)
						timer.current = setTimeout(() => {
							if (form) void submit(form, { replace: true, preventScrollReset: true })
						}, 300)
					}}
				/>
			</div>
			<Button type="submit" variant="secondary">
				{t('search.submit')}
			</Button>
			{q ? (
				<Button asChild variant="ghost" size="icon">
					<Link to="/app/categories" aria-label={t('search.clear')}>
						<XIcon aria-hidden="true" />
					</Link>
				</Button>
			) : null}
		</Form>
	)
}

function CategoryCard({ summary }: { summary: CategorySummary }) {
	const fmt = useFormat()
	const { t } = useTranslation(['categories', 'reports'])
	const name = t(`reports:category.${summary.category}`)
	return (
		<Card
			className="relative h-full gap-4 transition-colors focus-within:ring-[3px] focus-within:ring-ring/50 hover:bg-muted/40"
			data-testid="category-card"
			data-category={summary.category}
		>
			<CardHeader className="flex flex-row items-center justify-between gap-2">
				<CardTitle>
					<h2 className="flex items-center gap-2 text-base">
						<span className="size-2.5 rounded-full" style={{ background: categoryColors[summary.category] }} aria-hidden="true" />
						{/* The whole card is the link (its ::after covers the card); its name is the category's. */}
						<Link
							to={`/app/transactions?category=${summary.category}`}
							className="outline-none after:absolute after:inset-0 after:content-['']"
						>
							{name}
						</Link>
					</h2>
				</CardTitle>
				<TagIcon className="size-4 text-muted-foreground" aria-hidden="true" />
			</CardHeader>
			<CardContent>
				{/* The amount moves under the count when the two do not fit side by side (a six-figure total). */}
				<dl className="flex flex-wrap gap-x-8 gap-y-3">
					<div className="grid min-w-0 gap-1">
						<dt className="text-xs text-muted-foreground">{t('transactions')}</dt>
						<dd className="text-2xl font-semibold tabular-nums" data-testid="category-count">
							{fmt.number(summary.count)}
						</dd>
					</div>
					<div className="grid min-w-0 gap-1">
						<dt className="text-xs text-muted-foreground">{t('amount')}</dt>
						<dd className="text-2xl font-semibold tabular-nums [overflow-wrap:anywhere]" data-testid="category-amount">
							{fmt.money(summary.amount)}
						</dd>
					</div>
				</dl>
			</CardContent>
		</Card>
	)
}
