import { errorResponse } from '#app/lib/errors.ts'
import { isUuid } from '#app/lib/uuid.ts'
import { redirectWithToast } from '../toast.ts'
import type { CrmError } from './access.ts'
import type { CrmOutcome } from './notes.ts'
import { addCrmCard, deleteCrmPipeline, moveCrmCard, removeCrmCard, saveCrmPipeline, setCrmFollowUp } from './pipelines.ts'

/**
 * The forms of the pipelines' screens (docs/product.md, Clients › Pipelines): creating a pipeline,
 * and on a board saving its name and stages, deleting it, adding a client, moving a card (a
 * "Move to" select and button, or a drop once scripts run: the same post), a card's follow-up and
 * taking it off. Each goes back to its page with a toast, so every one works without JavaScript.
 */

export const BOARD_INTENTS = ['save', 'delete', 'add', 'move', 'followUp', 'remove'] as const
/** The most stages a pipeline's form sends (the function refuses more than 20). */
const MAX_STAGE_ROWS = 21

type Member = { userId: string; organizationId: string }

const text = (form: FormData, name: string, max: number) => {
	const value = form.get(name)
	return typeof value === 'string' && value.length <= max ? value : null
}

/** A refusal of the database goes back to the page with its reason; a form that cannot be read is a 400. */
function toast(back: string, code: CrmError | 'badRequest') {
	if (code === 'badRequest') return errorResponse(400, 'badRequest')
	return redirectWithToast(back, { type: 'error', title: `clients:crm.errors.${code}` })
}

/** "Create pipeline": a name and its stages, one per line. */
export async function createPipeline({ userId, organizationId }: Member, form: FormData) {
	const back = '/app/clients/pipelines'
	const name = text(form, 'name', 200)
	const stages = text(form, 'stages', 4000)
	if (form.get('intent') !== 'create' || name === null || stages === null) return toast(back, 'badRequest')
	const names = stages
		.split(/\r?\n/)
		.map((s) => s.trim())
		.filter(Boolean)
	const done = await saveCrmPipeline(
		userId,
		organizationId,
		null,
		name,
		names.map((n) => ({ id: null, name: n })),
	)
	return done.ok
		? redirectWithToast(`/app/clients/pipelines/${done.value}`, { type: 'success', title: 'clients:crm.pipelines.created' })
		: toast(back, done.code)
}

/** The stages as the board's settings form sends them: existing rows by position (blank name: deleted), then the new one. */
function stagesOf(form: FormData) {
	const rows: Array<{ id: string | null; name: string; position: number; index: number }> = []
	for (let i = 0; i < MAX_STAGE_ROWS; i++) {
		const id = form.get(`stages[${i}].id`)
		const name = text(form, `stages[${i}].name`, 200)
		if (id === null && name === null) continue
		if (!isUuid(id) || name === null) return null
		const position = Number(text(form, `stages[${i}].position`, 10) ?? i + 1)
		if (!name.trim()) continue
		rows.push({ id, name, position: Number.isFinite(position) ? position : i + 1, index: i })
	}
	const added = text(form, 'newStage', 200)
	if (added === null && form.has('newStage')) return null
	const ordered = rows.sort((a, b) => a.position - b.position || a.index - b.index).map(({ id, name }) => ({ id, name }))
	if (added?.trim()) ordered.push({ id: null, name: added })
	return ordered
}

const DONE: Record<(typeof BOARD_INTENTS)[number], string> = {
	save: 'clients:crm.pipelines.saved',
	delete: 'clients:crm.pipelines.deleted',
	add: 'clients:crm.pipelines.added',
	move: 'clients:crm.pipelines.moved',
	followUp: 'clients:crm.pipelines.followUpSaved',
	remove: 'clients:crm.pipelines.removed',
}

/** One of BOARD_INTENTS on the pipeline; `stageName` names a move's stage in its toast. */
export async function boardAction(
	{ userId, organizationId }: Member,
	pipelineId: string,
	form: FormData,
	stageName: (stageId: string) => string | undefined,
) {
	const back = `/app/clients/pipelines/${pipelineId}`
	const intent = form.get('intent')
	const cardId = form.get('cardId')
	let done: CrmOutcome<unknown>
	let values: Record<string, string> | undefined
	if (intent === 'save') {
		const name = text(form, 'name', 200)
		const stages = stagesOf(form)
		if (name === null || stages === null) return toast(back, 'badRequest')
		done = await saveCrmPipeline(userId, organizationId, pipelineId, name, stages)
	} else if (intent === 'delete') {
		done = await deleteCrmPipeline(userId, pipelineId)
		if (done.ok) return redirectWithToast('/app/clients/pipelines', { type: 'success', title: DONE.delete })
	} else if (intent === 'add') {
		const clientId = form.get('clientId')
		done = isUuid(clientId) ? await addCrmCard(userId, pipelineId, clientId) : { ok: false, code: 'not_found' }
	} else if (intent === 'move' || intent === 'followUp' || intent === 'remove') {
		if (!isUuid(cardId)) return toast(back, 'not_found')
		if (intent === 'move') {
			const stageId = form.get('stageId')
			if (!isUuid(stageId)) return toast(back, 'stage_not_in_pipeline')
			done = await moveCrmCard(userId, cardId, stageId)
			values = { stage: stageName(stageId) ?? '' }
		} else if (intent === 'followUp') {
			const date = text(form, 'followUpOn', 10)
			const owner = form.get('ownerId')
			if (date === null || (date !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(date))) return toast(back, 'date_invalid')
			if (owner !== null && owner !== '' && !isUuid(owner)) return toast(back, 'owner_not_member')
			done = await setCrmFollowUp(userId, cardId, date || null, isUuid(owner) ? owner : null)
		} else {
			done = await removeCrmCard(userId, cardId)
		}
	} else {
		return toast(back, 'badRequest')
	}
	if (!done.ok) return toast(back, done.code)
	return redirectWithToast(`${back}${isUuid(cardId) && intent !== 'remove' ? `#card-${cardId}` : ''}`, {
		type: 'success',
		title: DONE[intent],
		values,
	})
}
