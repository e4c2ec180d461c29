import { errorResponse } from '#app/lib/errors.ts'
import { isUuid } from '#app/lib/uuid.ts'
import { redirectWithToast } from '../toast.ts'
import { crmAccess, type CrmError } from './access.ts'
import { addClientNote, deleteClientNote, listClientNotes, setClientTags, splitTags } from './notes.ts'
import { addCrmCard, clientCards, listPipelines } from './pipelines.ts'

/**
 * The CRM parts of a client's page (docs/product.md, Clients › Tags and notes, Pipelines): what
 * the loader shows for the upgrades the organization owns, and the intents its forms post. Every
 * outcome goes back to the client's page with a toast, so each form works without JavaScript.
 */

type Member = { user: { userId: string }; organization: { id: string; role: string } }

export async function clientCrm(member: Member, clientId: string) {
	const { user, organization } = member
	const access = await crmAccess(user.userId, organization.id)
	const manager = organization.role === 'owner' || organization.role === 'administrator'
	const [notes, cards, pipelines] = await Promise.all([
		access.basicFields ? listClientNotes(user.userId, organization.id, clientId, manager) : null,
		access.pipelines ? clientCards(user.userId, organization.id, clientId) : null,
		access.pipelines ? listPipelines(user.userId, organization.id) : null,
	])
	return { access, notes, cards, pipelines: pipelines?.map((p) => ({ id: p.id, name: p.name })) ?? null }
}

export const CLIENT_CRM_INTENTS = ['tags', 'addNote', 'deleteNote', 'addToPipeline'] as const

const text = (form: FormData, name: string, max: number) => {
	const value = form.get(name)
	return typeof value === 'string' && value.length <= max ? value : null
}

/** Handles one of CLIENT_CRM_INTENTS for the client; null for another intent. */
export async function clientCrmAction(member: Member, clientId: string, form: FormData): Promise<Response | null> {
	const intent = form.get('intent')
	const back = `/app/clients/${clientId}`
	// A refusal of the database goes back to the page with its reason; a form that cannot be read is a 400.
	const refuse = (code: CrmError | 'badRequest') =>
		code === 'badRequest'
			? errorResponse(400, 'badRequest')
			: redirectWithToast(back, { type: 'error', title: `clients:crm.errors.${code}` })
	const { userId } = member.user
	if (intent === 'tags') {
		const tags = text(form, 'tags', 2000)
		if (tags === null) return refuse('badRequest')
		const done = await setClientTags(userId, clientId, splitTags(tags))
		return done.ok ? redirectWithToast(`${back}#tags`, { type: 'success', title: 'clients:crm.tags.saved' }) : refuse(done.code)
	}
	if (intent === 'addNote') {
		const body = text(form, 'body', 20_000)
		if (body === null) return refuse('badRequest')
		const done = await addClientNote(userId, clientId, body)
		return done.ok ? redirectWithToast(`${back}#notes`, { type: 'success', title: 'clients:crm.notes.added' }) : refuse(done.code)
	}
	if (intent === 'deleteNote') {
		const noteId = form.get('noteId')
		if (!isUuid(noteId)) return refuse('not_found')
		const done = await deleteClientNote(userId, noteId)
		return done.ok ? redirectWithToast(`${back}#notes`, { type: 'success', title: 'clients:crm.notes.deleted' }) : refuse(done.code)
	}
	if (intent === 'addToPipeline') {
		const pipelineId = form.get('pipelineId')
		if (!isUuid(pipelineId)) return refuse('not_found')
		const done = await addCrmCard(userId, pipelineId, clientId)
		return done.ok ? redirectWithToast(`${back}#pipelines`, { type: 'success', title: 'clients:crm.pipelines.added' }) : refuse(done.code)
	}
	return null
}
