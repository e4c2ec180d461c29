import { dateIn } from '#app/lib/dates.ts'
import { asUser, sql } from '../db/index.ts'
import { crmAccess } from './access.ts'
import { crmCall } from './notes.ts'

/**
 * CRM Pipelines (docs/product.md, Clients › Pipelines): an organization's pipelines, each with
 * stages its owners and administrators name and order, and cards (a client in a stage, owned by a
 * member, with a follow-up date). Reads under RLS; writes through the SQL functions of
 * 20261209100000_crm.sql, which refuse with stable codes.
 */

export type Pipeline = { id: string; name: string; stages: number; cards: number }

export async function listPipelines(userId: string, organizationId: string): Promise<Pipeline[]> {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string; name: string; stages: number; cards: number }>`
			select p.id, p.name,
				(select count(*)::int from public.crm_stages s where s.pipeline_id = p.id) as stages,
				(select count(*)::int from public.crm_cards c where c.pipeline_id = p.id) as cards
			from public.crm_pipelines p where p.organization_id = ${organizationId}
			order by p.created_at, p.id`.execute(trx),
	)
	return rows
}

export type Stage = { id: string; name: string }
export type Card = {
	id: string
	stageId: string
	clientId: string
	clientName: string
	clientEmail: string | null
	ownerId: string | null
	ownerName: string | null
	followUpOn: string | null
}
export type Board = { id: string; name: string; stages: Stage[]; cards: Card[] }

/** The most cards a board shows per pipeline. */
export const BOARD_CARDS = 500

/** A pipeline with its stages in order and its cards (by follow-up date, then client), or null. */
export async function getBoard(userId: string, organizationId: string, pipelineId: string): Promise<Board | null> {
	return asUser(userId, async (trx) => {
		const { rows: found } = await sql<{ id: string; name: string }>`
			select p.id, p.name from public.crm_pipelines p where p.organization_id = ${organizationId} and p.id = ${pipelineId}`.execute(trx)
		const pipeline = found[0]
		if (!pipeline) return null
		const { rows: stages } = await sql<Stage>`
			select s.id, s.name from public.crm_stages s where s.pipeline_id = ${pipelineId} order by s.position`.execute(trx)
		const { rows: cards } = await sql<Card>`
			select k.id, k.stage_id as "stageId", k.client_id as "clientId", c.name as "clientName", c.email as "clientEmail",
				k.owner_id as "ownerId", nullif(p.full_name, '') as "ownerName", k.follow_up_on::text as "followUpOn"
			from public.crm_cards k join public.clients c on c.id = k.client_id
			left join public.profiles p on p.user_id = k.owner_id
			where k.pipeline_id = ${pipelineId}
			order by k.follow_up_on nulls last, public.name_sort_key(c.name), k.id
			limit ${BOARD_CARDS}`.execute(trx)
		return { ...pipeline, stages, cards }
	})
}

/** The pipelines a client is on, with the stage, for the client's page. */
export async function clientCards(userId: string, organizationId: string, clientId: string) {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string; pipelineId: string; pipelineName: string; stageName: string; followUpOn: string | null }>`
			select k.id, k.pipeline_id as "pipelineId", p.name as "pipelineName", s.name as "stageName", k.follow_up_on::text as "followUpOn"
			from public.crm_cards k join public.crm_pipelines p on p.id = k.pipeline_id join public.crm_stages s on s.id = k.stage_id
			where k.organization_id = ${organizationId} and k.client_id = ${clientId}
			order by p.created_at, p.id`.execute(trx),
	)
	return rows
}

/** Creates (pipelineId null) or saves a pipeline with its stages in order. */
export function saveCrmPipeline(
	userId: string,
	organizationId: string,
	pipelineId: string | null,
	name: string,
	stages: Array<{ id: string | null; name: string }>,
) {
	return crmCall(userId, async (trx) => {
		const { rows } = await sql<{ id: string }>`
			select public.save_crm_pipeline(${organizationId}, ${pipelineId}::uuid, ${name}, ${JSON.stringify(stages)}::jsonb) as id`.execute(trx)
		return rows[0]!.id
	})
}

export function deleteCrmPipeline(userId: string, pipelineId: string) {
	return crmCall(userId, async (trx) => {
		await sql`select public.delete_crm_pipeline(${pipelineId})`.execute(trx)
	})
}

export function addCrmCard(userId: string, pipelineId: string, clientId: string) {
	return crmCall(userId, async (trx) => {
		const { rows } = await sql<{ id: string }>`select public.add_crm_card(${pipelineId}, ${clientId}) as id`.execute(trx)
		return rows[0]!.id
	})
}

export function moveCrmCard(userId: string, cardId: string, stageId: string) {
	return crmCall(userId, async (trx) => {
		await sql`select public.move_crm_card(${cardId}, ${stageId})`.execute(trx)
	})
}

/** Sets a card's follow-up date (null clears it) and its owner (null keeps it). */
export function setCrmFollowUp(userId: string, cardId: string, date: string | null, ownerId: string | null) {
	return crmCall(userId, async (trx) => {
		await sql`select public.set_crm_follow_up(${cardId}, ${date}::date, ${ownerId}::uuid)`.execute(trx)
	})
}

export function removeCrmCard(userId: string, cardId: string) {
	return crmCall(userId, async (trx) => {
		await sql`select public.remove_crm_card(${cardId})`.execute(trx)
	})
}

export type FollowUp = {
	cardId: string
	clientId: string
	clientName: string
	pipelineId: string
	pipelineName: string
	stageName: string
	followUpOn: string
}

/** The dashboard's "Follow-ups today": the cards whose follow-up date is `today` or earlier, oldest first. */
export async function followUpsDue(userId: string, organizationId: string, today: string, limit = 20): Promise<FollowUp[]> {
	const { rows } = await asUser(userId, (trx) =>
		sql<FollowUp>`
			select k.id as "cardId", k.client_id as "clientId", c.name as "clientName", k.pipeline_id as "pipelineId",
				p.name as "pipelineName", s.name as "stageName", k.follow_up_on::text as "followUpOn"
			from public.crm_cards k join public.clients c on c.id = k.client_id
			join public.crm_pipelines p on p.id = k.pipeline_id join public.crm_stages s on s.id = k.stage_id
			where k.organization_id = ${organizationId} and k.follow_up_on is not null and k.follow_up_on <= ${today}::date
			order by k.follow_up_on, public.name_sort_key(c.name), k.id
			limit ${limit}`.execute(trx),
	)
	return rows
}

/** The dashboard's follow-ups (`today` in the organization's zone), or null without CRM Pipelines. */
export async function followUpsForScreen(userId: string, organization: { id: string; timezone: string }) {
	const { pipelines } = await crmAccess(userId, organization.id)
	if (!pipelines) return null
	const today = dateIn(organization.timezone, new Date())
	return { today, rows: await followUpsDue(userId, organization.id, today) }
}

/** The organization's members, by name, for a card's owner. */
export async function memberChoices(userId: string, organizationId: string) {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string; name: string }>`
			select m.user_id as id, coalesce(nullif(p.full_name, ''), '—') as name
			from public.organization_members m left join public.profiles p on p.user_id = m.user_id
			where m.organization_id = ${organizationId}
			order by public.name_sort_key(coalesce(p.full_name, '')), m.user_id limit 200`.execute(trx),
	)
	return rows
}
