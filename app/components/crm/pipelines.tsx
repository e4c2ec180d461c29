import { AppForm } from '#app/components/forms/app-form.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The pipelines' screens (docs/product.md, Clients › Pipelines): the list with the form that
 * creates one, a board's settings (name and stages), and the dashboard's "Follow-ups today".
 * The board itself is in ./board.tsx.
 */

export function PipelinesHeader({ back }: { back: 'clients' | 'pipelines' }) {
	const { t } = useTranslation('clients')
	return (
		<Link
			to={back === 'clients' ? '/app/clients' : '/app/clients/pipelines'}
			className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
		>
			<ArrowLeftIcon className="size-4" aria-hidden="true" />
			{back === 'clients' ? t('detail.back') : t('crm.pipelines.back')}
		</Link>
	)
}

type PipelineRow = { id: string; name: string; stages: number; cards: number }

export function PipelineList({ pipelines }: { pipelines: PipelineRow[] }) {
	const { t } = useTranslation('clients')
	const fmt = useFormat()
	if (pipelines.length === 0) return <p className="text-sm text-muted-foreground">{t('crm.pipelines.empty')}</p>
	return (
		<div className="rounded-md border">
			<Table>
				<caption className="sr-only">{t('crm.pipelines.caption')}</caption>
				<TableHeader>
					<TableRow>
						<TableHead>{t('crm.pipelines.name')}</TableHead>
						<TableHead className="text-right">{t('crm.pipelines.stages')}</TableHead>
						<TableHead className="text-right">{t('crm.pipelines.cards')}</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{pipelines.map((p) => (
						<TableRow key={p.id}>
							<TableCell className="whitespace-normal wrap-anywhere">
								<Link to={`/app/clients/pipelines/${p.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
									{p.name}
								</Link>
							</TableCell>
							<TableCell className="text-right tabular-nums">{fmt.number(p.stages)}</TableCell>
							<TableCell className="text-right tabular-nums">{fmt.number(p.cards)}</TableCell>
						</TableRow>
					))}
				</TableBody>
			</Table>
		</div>
	)
}

export function CreatePipelineForm({ manager }: { manager: boolean }) {
	const { t } = useTranslation('clients')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('crm.pipelines.new')}</h2>
				</CardTitle>
				{manager ? null : <CardDescription>{t('crm.pipelines.managersOnly')}</CardDescription>}
			</CardHeader>
			{manager ? (
				<CardContent>
					<AppForm method="post" className="grid max-w-xl gap-3">
						<input type="hidden" name="intent" value="create" />
						<Label htmlFor="pipeline-name">{t('crm.pipelines.name')}</Label>
						<Input id="pipeline-name" name="name" required maxLength={100} />
						<Label htmlFor="pipeline-stages">{t('crm.pipelines.stagesLabel')}</Label>
						<Textarea id="pipeline-stages" name="stages" required rows={4} aria-describedby="pipeline-stages-hint" />
						<p id="pipeline-stages-hint" className="text-xs text-muted-foreground">
							{t('crm.pipelines.stagesHint')}
						</p>
						<SubmitButton label={t('crm.pipelines.create')} pendingLabel={t('crm.pipelines.create')} intent="create" className="w-fit" />
					</AppForm>
				</CardContent>
			) : null}
		</Card>
	)
}

/** A board's name and stages, for owners and administrators: positions reorder, an emptied name deletes. */
export function PipelineSettings({ name, stages }: { name: string; stages: Array<{ id: string; name: string }> }) {
	const { t } = useTranslation('clients')
	return (
		<details className="rounded-md border p-4">
			<summary className="cursor-pointer font-medium">{t('crm.pipelines.settings')}</summary>
			<AppForm method="post" className="mt-4 grid max-w-xl gap-3">
				<input type="hidden" name="intent" value="save" />
				<Label htmlFor="board-name">{t('crm.pipelines.name')}</Label>
				<Input id="board-name" name="name" defaultValue={name} required maxLength={100} />
				<p className="text-xs text-muted-foreground">{t('crm.pipelines.stagesEditHint')}</p>
				{stages.map((stage, i) => (
					<div key={stage.id} className="flex gap-2">
						<input type="hidden" name={`stages[${i}].id`} value={stage.id} />
						<Input
							name={`stages[${i}].position`}
							type="number"
							min={1}
							max={20}
							defaultValue={i + 1}
							aria-label={t('crm.pipelines.stagePosition', { position: i + 1 })}
							className="w-20"
						/>
						<Input
							name={`stages[${i}].name`}
							defaultValue={stage.name}
							maxLength={60}
							aria-label={t('crm.pipelines.stageName', { position: i + 1 })}
						/>
					</div>
				))}
				<Label htmlFor="board-new-stage">{t('crm.pipelines.newStage')}</Label>
				<Input id="board-new-stage" name="newStage" maxLength={60} />
				<SubmitButton label={t('crm.pipelines.save')} pendingLabel={t('crm.pipelines.save')} intent="save" className="w-fit" />
			</AppForm>
			<AppForm method="post" className="mt-6">
				<input type="hidden" name="intent" value="delete" />
				<Button type="submit" variant="destructive">
					{t('crm.pipelines.delete')}
				</Button>
			</AppForm>
		</details>
	)
}

type FollowUp = {
	cardId: string
	clientId: string
	clientName: string
	pipelineId: string
	pipelineName: string
	stageName: string
	followUpOn: string
}

/** The dashboard's "Follow-ups today" (with CRM Pipelines): due today, and earlier ones not yet cleared. */
export function FollowUpsToday({ today, rows }: { today: string; rows: FollowUp[] }) {
	const { t } = useTranslation('clients')
	const fmt = useFormat()
	return (
		<Card data-testid="follow-ups-today">
			<CardHeader>
				<CardTitle>
					<h2>{t('crm.followUps.title')}</h2>
				</CardTitle>
			</CardHeader>
			<CardContent>
				{rows.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('crm.followUps.empty')}</p>
				) : (
					<ul className="grid gap-2 text-sm">
						{rows.map((f) => (
							<li key={f.cardId} className="flex flex-wrap items-baseline gap-x-2">
								<Link to={`/app/clients/${f.clientId}`} className="font-medium text-primary underline-offset-4 hover:underline">
									{f.clientName || t('unnamed')}
								</Link>
								<Link
									to={`/app/clients/pipelines/${f.pipelineId}#card-${f.cardId}`}
									className="text-muted-foreground hover:text-foreground"
								>
									{t('crm.followUps.line', { pipeline: f.pipelineName, stage: f.stageName })}
								</Link>
								{f.followUpOn < today ? (
									<span className="text-destructive">{t('crm.followUps.overdue', { date: fmt.date(f.followUpOn) })}</span>
								) : null}
							</li>
						))}
					</ul>
				)}
			</CardContent>
		</Card>
	)
}
