import { useState } from 'react'
import { useFetcher, useRouteLoaderData } from 'react-router'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Link } from '#app/components/link.tsx'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { APP_LAYOUT_ROUTE, type AppLayoutData } from '#app/lib/app-layout.ts'
import { ORGANIZATION_FIELD } from '#app/lib/organization-field.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * A pipeline's board (docs/product.md, Clients › Pipelines): a column per stage, a card per client.
 * Without JavaScript every change is a form post: a "Move to" select and button, the follow-up
 * date and owner, taking the card off. Once scripts run, a card can also be dragged to another
 * column: the drop posts the same "move" form through a fetcher, and the card shows in its new
 * column at once (progressive enhancement).
 */

type Stage = { id: string; name: string }
type Card = {
	id: string
	stageId: string
	clientId: string
	clientName: string
	clientEmail: string | null
	ownerId: string | null
	ownerName: string | null
	followUpOn: string | null
}
type Choice = { id: string; name: string }

export function Board({ stages, cards, members }: { stages: Stage[]; cards: Card[]; members: Choice[] }) {
	const { t } = useTranslation('clients')
	const fetcher = useFetcher()
	const organizationId = useRouteLoaderData<AppLayoutData>(APP_LAYOUT_ROUTE)?.organization.id
	const scripts = useHydrated()
	const [dragged, setDragged] = useState<string | null>(null)
	const [over, setOver] = useState<string | null>(null)
	// The move under way shows where it goes before the page reloads.
	const moving =
		fetcher.formData?.get('intent') === 'move' ? { card: fetcher.formData.get('cardId'), stage: fetcher.formData.get('stageId') } : null
	const stageOf = (card: Card) => (moving && moving.card === card.id ? String(moving.stage) : card.stageId)

	const drop = (stageId: string) => {
		setOver(null)
		const card = cards.find((c) => c.id === dragged)
		setDragged(null)
		if (!card || stageOf(card) === stageId) return
		const data = new FormData()
		if (organizationId) data.set(ORGANIZATION_FIELD, organizationId)
		data.set('intent', 'move')
		data.set('cardId', card.id)
		data.set('stageId', stageId)
		void fetcher.submit(data, { method: 'post' })
	}

	return (
		<div className="grid gap-2">
			{scripts ? <p className="text-xs text-muted-foreground">{t('crm.pipelines.dragHint')}</p> : null}
			<div className="flex min-w-0 gap-4 overflow-x-auto pb-2" data-testid="board">
				{stages.map((stage) => {
					const inStage = cards.filter((c) => stageOf(c) === stage.id)
					return (
						<section
							key={stage.id}
							aria-labelledby={`stage-${stage.id}`}
							data-stage={stage.name}
							className={`grid w-72 shrink-0 content-start gap-3 rounded-md border bg-muted/40 p-3 ${over === stage.id ? 'ring-2 ring-ring' : ''}`}
							onDragOver={
								scripts
									? (e) => {
											e.preventDefault()
											setOver(stage.id)
										}
									: undefined
							}
							onDragLeave={scripts ? () => setOver((o) => (o === stage.id ? null : o)) : undefined}
							onDrop={
								scripts
									? (e) => {
											e.preventDefault()
											drop(stage.id)
										}
									: undefined
							}
						>
							<h3 id={`stage-${stage.id}`} className="flex items-center justify-between font-semibold">
								<span className="wrap-anywhere">{stage.name}</span>
								<span className="text-sm font-normal text-muted-foreground tabular-nums">{inStage.length}</span>
							</h3>
							{inStage.length === 0 ? <p className="text-sm text-muted-foreground">{t('crm.pipelines.noCards')}</p> : null}
							{inStage.map((card) => (
								<BoardCard
									key={card.id}
									card={card}
									stages={stages}
									members={members}
									draggable={scripts}
									onDragStart={() => setDragged(card.id)}
								/>
							))}
						</section>
					)
				})}
			</div>
		</div>
	)
}

function BoardCard({
	card,
	stages,
	members,
	draggable,
	onDragStart,
}: {
	card: Card
	stages: Stage[]
	members: Choice[]
	draggable: boolean
	onDragStart: () => void
}) {
	const { t } = useTranslation('clients')
	const fmt = useFormat()
	const others = stages.filter((s) => s.id !== card.stageId)
	const next = stages[stages.findIndex((s) => s.id === card.stageId) + 1] ?? others[0]
	const name = card.clientName || card.clientEmail || t('unnamed')
	return (
		<article
			id={`card-${card.id}`}
			data-testid="board-card"
			aria-label={name}
			draggable={draggable || undefined}
			onDragStart={
				draggable
					? (e) => {
							e.dataTransfer.setData('text/plain', card.id)
							e.dataTransfer.effectAllowed = 'move'
							onDragStart()
						}
					: undefined
			}
			className={`grid gap-2 rounded-md border bg-background p-3 text-sm shadow-xs ${draggable ? 'cursor-grab' : ''}`}
		>
			<Link to={`/app/clients/${card.clientId}`} className="font-medium text-primary underline-offset-4 wrap-anywhere hover:underline">
				{name}
			</Link>
			<p className="text-xs text-muted-foreground">
				{card.followUpOn ? t('crm.pipelines.followUpOn', { date: fmt.date(card.followUpOn) }) : t('crm.pipelines.noFollowUp')}
				{card.ownerName ? ` · ${t('crm.pipelines.ownedBy', { name: card.ownerName })}` : null}
			</p>
			{others.length ? (
				<AppForm method="post" className="flex items-end gap-2">
					<input type="hidden" name="intent" value="move" />
					<input type="hidden" name="cardId" value={card.id} />
					<div className="grid min-w-0 flex-1 gap-1">
						<Label htmlFor={`move-${card.id}`} className="text-xs">
							{t('crm.pipelines.moveTo')}
						</Label>
						<NativeSelect id={`move-${card.id}`} name="stageId" defaultValue={next?.id} className="w-full min-w-0">
							{others.map((s) => (
								<option key={s.id} value={s.id}>
									{s.name}
								</option>
							))}
						</NativeSelect>
					</div>
					<Button type="submit" size="sm" variant="secondary" aria-label={`${t('crm.pipelines.move')}: ${name}`}>
						{t('crm.pipelines.move')}
					</Button>
				</AppForm>
			) : null}
			<details>
				<summary className="cursor-pointer text-xs text-muted-foreground">{t('crm.pipelines.setFollowUp')}</summary>
				<AppForm method="post" className="mt-2 grid gap-2">
					<input type="hidden" name="intent" value="followUp" />
					<input type="hidden" name="cardId" value={card.id} />
					<Label htmlFor={`follow-${card.id}`} className="text-xs">
						{t('crm.pipelines.followUp')}
					</Label>
					<Input id={`follow-${card.id}`} name="followUpOn" type="date" defaultValue={card.followUpOn ?? ''} />
					<Label htmlFor={`owner-${card.id}`} className="text-xs">
						{t('crm.pipelines.owner')}
					</Label>
					<NativeSelect id={`owner-${card.id}`} name="ownerId" defaultValue={card.ownerId ?? ''}>
						{card.ownerId && !members.some((m) => m.id === card.ownerId) ? <option value="">{card.ownerName ?? '—'}</option> : null}
						{members.map((m) => (
							<option key={m.id} value={m.id}>
								{m.name}
							</option>
						))}
					</NativeSelect>
					<Button type="submit" size="sm" className="w-fit">
						{t('crm.pipelines.setFollowUp')}
					</Button>
				</AppForm>
				<AppForm method="post" className="mt-2">
					<input type="hidden" name="intent" value="remove" />
					<input type="hidden" name="cardId" value={card.id} />
					<Button type="submit" size="sm" variant="ghost">
						{t('crm.pipelines.remove')}
					</Button>
				</AppForm>
			</details>
		</article>
	)
}

/** "Add to pipeline": a client of the organization not on it yet. */
export function AddCardForm({ clients }: { clients: Array<{ id: string; label: string }> }) {
	const { t } = useTranslation('clients')
	if (clients.length === 0) return null
	return (
		<AppForm method="post" className="flex flex-wrap items-end gap-2">
			<input type="hidden" name="intent" value="add" />
			<div className="grid gap-1">
				<Label htmlFor="board-add-client">{t('crm.pipelines.addClient')}</Label>
				<NativeSelect id="board-add-client" name="clientId" required defaultValue="" className="max-w-80">
					<option value="" disabled>
						{t('crm.pipelines.addClientPlaceholder')}
					</option>
					{clients.map((c) => (
						<option key={c.id} value={c.id}>
							{c.label}
						</option>
					))}
				</NativeSelect>
			</div>
			<Button type="submit">{t('crm.pipelines.add')}</Button>
		</AppForm>
	)
}
