import { AppForm } from '#app/components/forms/app-form.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { StoreIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { NativeSelect } from '#app/components/data-table/data-table.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { MODULES } from '#app/lib/modules.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The CRM parts of the clients' screens (docs/product.md, Clients): the offer of the upgrades an
 * organization lacks, a client's tags, notes timeline and pipelines. Every form is a post that
 * works without JavaScript.
 */

/** What the upgrades the organization lacks would add, with a link to the Clients CRM module's page. */
export function CrmOffer({ basicFields, pipelines }: { basicFields: boolean; pipelines: boolean }) {
	const { t } = useTranslation('clients')
	if (basicFields && pipelines) return null
	return (
		<Card data-testid="crm-offer">
			<CardHeader>
				<CardTitle>
					<h2>{t('crm.offer.title')}</h2>
				</CardTitle>
				<CardDescription className="grid gap-1">
					{basicFields ? null : <span>{t('crm.offer.basicFields')}</span>}
					{pipelines ? null : <span>{t('crm.offer.pipelines')}</span>}
				</CardDescription>
			</CardHeader>
			<CardContent>
				<Button asChild variant="outline">
					<Link to={`/app/modules/${MODULES.crm.id}`}>
						<StoreIcon aria-hidden="true" />
						{t('crm.offer.action')}
					</Link>
				</Button>
			</CardContent>
		</Card>
	)
}

/** A client's tags as links to the list filtered by each. */
export function TagList({ tags }: { tags: string[] }) {
	if (tags.length === 0) return null
	return (
		<ul className="flex flex-wrap gap-1">
			{tags.map((tag) => (
				<li key={tag}>
					<Badge asChild variant="secondary">
						<Link to={`/app/clients?tag=${encodeURIComponent(tag)}`}>{tag}</Link>
					</Badge>
				</li>
			))}
		</ul>
	)
}

export function ClientTags({ tags }: { tags: string[] }) {
	const { t } = useTranslation('clients')
	return (
		<section id="tags" aria-labelledby="client-tags" className="grid gap-3">
			<h2 id="client-tags" className="text-lg font-semibold">
				{t('crm.tags.title')}
			</h2>
			{tags.length ? <TagList tags={tags} /> : <p className="text-sm text-muted-foreground">{t('crm.tags.none')}</p>}
			{/* Keyed by the saved tags: a save shows them as stored; a refusal keeps what was typed. */}
			<AppForm key={tags.join(',')} method="post" className="flex max-w-2xl flex-wrap items-end gap-2">
				<input type="hidden" name="intent" value="tags" />
				<div className="grid min-w-64 flex-1 gap-2">
					<Label htmlFor="client-tags-input">{t('crm.tags.label')}</Label>
					<Input id="client-tags-input" name="tags" defaultValue={tags.join(', ')} maxLength={2000} aria-describedby="client-tags-hint" />
					<p id="client-tags-hint" className="text-xs text-muted-foreground">
						{t('crm.tags.hint')}
					</p>
				</div>
				<SubmitButton label={t('crm.tags.save')} pendingLabel={t('crm.tags.save')} intent="tags" className="mb-6" />
			</AppForm>
		</section>
	)
}

type Note = { id: string; body: string; when: { date: string; time: string }; authorName: string | null; mine: boolean }

export function ClientNotes({ notes }: { notes: Note[] }) {
	const { t } = useTranslation('clients')
	const fmt = useFormat()
	return (
		<section id="notes" aria-labelledby="client-notes" className="grid gap-3">
			<h2 id="client-notes" className="text-lg font-semibold">
				{t('crm.notes.title')}
			</h2>
			{/* Keyed by the newest note: an added note empties the field; a refusal keeps the text. */}
			<AppForm key={notes[0]?.id ?? 'none'} method="post" className="grid max-w-2xl gap-2">
				<input type="hidden" name="intent" value="addNote" />
				<Label htmlFor="client-note-body">{t('crm.notes.label')}</Label>
				<Textarea id="client-note-body" name="body" required maxLength={5000} rows={3} />
				<SubmitButton label={t('crm.notes.add')} pendingLabel={t('crm.notes.add')} intent="addNote" className="w-fit" />
			</AppForm>
			{notes.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('crm.notes.empty')}</p>
			) : (
				<ol aria-label={t('crm.notes.caption')} className="grid max-w-2xl gap-3" data-testid="client-notes">
					{notes.map((note) => (
						<li key={note.id} className="grid gap-1 rounded-md border p-3">
							<p className="text-xs text-muted-foreground">
								{t('crm.notes.by', { author: note.authorName ?? t('crm.notes.unknownAuthor'), when: fmt.dateTime(note.when) })}
							</p>
							<p className="text-sm break-words whitespace-pre-wrap">{note.body}</p>
							{note.mine ? (
								<AppForm method="post" className="justify-self-end">
									<input type="hidden" name="intent" value="deleteNote" />
									<input type="hidden" name="noteId" value={note.id} />
									<Button type="submit" variant="ghost" size="sm">
										{t('crm.notes.delete')}
									</Button>
								</AppForm>
							) : null}
						</li>
					))}
				</ol>
			)}
		</section>
	)
}

type ClientCard = { id: string; pipelineId: string; pipelineName: string; stageName: string; followUpOn: string | null }

export function ClientPipelines({ cards, pipelines }: { cards: ClientCard[]; pipelines: Array<{ id: string; name: string }> }) {
	const { t } = useTranslation('clients')
	const fmt = useFormat()
	const on = new Set(cards.map((c) => c.pipelineId))
	const open = pipelines.filter((p) => !on.has(p.id))
	return (
		<section id="pipelines" aria-labelledby="client-pipelines" className="grid gap-3">
			<h2 id="client-pipelines" className="text-lg font-semibold">
				{t('crm.pipelines.onPipelines')}
			</h2>
			{cards.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('crm.pipelines.notOnAny')}</p>
			) : (
				<ul className="grid gap-1 text-sm">
					{cards.map((card) => (
						<li key={card.id}>
							<Link to={`/app/clients/pipelines/${card.pipelineId}`} className="text-primary underline-offset-4 hover:underline">
								{t('crm.pipelines.stageOf', { pipeline: card.pipelineName, stage: card.stageName })}
							</Link>
							{card.followUpOn ? (
								<span className="text-muted-foreground"> · {t('crm.pipelines.followUpOn', { date: fmt.date(card.followUpOn) })}</span>
							) : null}
						</li>
					))}
				</ul>
			)}
			{open.length ? (
				<AppForm method="post" className="flex flex-wrap items-end gap-2">
					<input type="hidden" name="intent" value="addToPipeline" />
					<div className="grid gap-2">
						<Label htmlFor="client-add-pipeline">{t('crm.pipelines.pipeline')}</Label>
						<NativeSelect id="client-add-pipeline" name="pipelineId" required>
							{open.map((p) => (
								<option key={p.id} value={p.id}>
									{p.name}
								</option>
							))}
						</NativeSelect>
					</div>
					<SubmitButton label={t('crm.pipelines.addTo')} pendingLabel={t('crm.pipelines.addTo')} intent="addToPipeline" />
				</AppForm>
			) : null}
		</section>
	)
}
