/**
 * One membership idiom in policies (supabase/migrations/20261122002000_one_membership_check.sql):
 * a policy may call a function only as `( select auth.uid() )` or as `<column> in ( select
 * public.my_organization_ids() )` (optionally with a role), and every policy of an
 * organization-scoped table goes through the latter. A policy written another way (a per-row
 * helper call, a bare auth.uid(), its own read of organization_members) fails here.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, sql, type Tx } from '#app/.server/db/index.ts'

type Policy = { table: string; name: string; cmd: string; expression: string; scoped: boolean }

/** The public schema's policies, deparsed with every name schema-qualified. */
async function policies(trx: Tx): Promise<Policy[]> {
	await sql`set local search_path = ''`.execute(trx)
	const { rows } = await sql<Policy>`
		select p.tablename as table, p.policyname as name, p.cmd,
			coalesce(p.qual, '') || ' ' || coalesce(p.with_check, '') as expression,
			p.tablename = 'organizations' or exists (
				select 1 from information_schema.columns c
				where c.table_schema = 'public' and c.table_name = p.tablename and c.column_name = 'organization_id'
			) as scoped
		from pg_catalog.pg_policies p
		where p.schemaname = 'public'
		order by 1, 2`.execute(trx)
	return rows
}

const UID = /\( SELECT auth\.uid\(\) AS uid\)/g
const MEMBER = /\bIN \( SELECT public\.my_organization_ids\(('(?:owner|administrator)'::public\.org_role)?\) AS my_organization_ids\)/g

/** What is wrong with each policy, if anything. */
function offences(list: Policy[]) {
	return list.flatMap((p) => {
		const problems: string[] = []
		const rest = p.expression.replace(UID, '<uid>').replace(MEMBER, 'IN <member>')
		const calls = rest.match(/[\w.]+\(/g)
		if (calls) problems.push(`calls ${calls.join(', ')} outside the idiom`)
		if (p.scoped && !rest.includes('IN <member>')) problems.push('is not scoped by public.my_organization_ids()')
		if (rest.includes('organization_members') && !(p.table === 'profiles' && p.cmd === 'SELECT')) {
			problems.push('reads organization_members itself')
		}
		return problems.map((problem) => `${p.table} · ${p.name}: ${problem}`)
	})
}

const ROLLBACK = new Error('rolled back on purpose')

describe('policies use one membership idiom', () => {
	test('every policy calls only ( select auth.uid() ) and in ( select public.my_organization_ids() ), and every organization-scoped table is scoped by it', async () => {
		const list = await asSystem(policies)
		expect(list.length).toBeGreaterThan(30)
		expect(list.filter((p) => p.scoped).length).toBeGreaterThan(30)
		expect(offences(list)).toEqual([])
	})

	test('the check catches the other idioms', async () => {
		let caught: string[] = []
		await asSystem(async (trx) => {
			// A table of its own, created in this transaction and rolled back with it: no other test waits on it.
			await sql`create table public.idiom_probe (organization_id uuid, user_id uuid)`.execute(trx)
			await sql`create function public.idiom_probe_helper(org uuid) returns boolean language sql stable as 'select true'`.execute(trx)
			await sql`create policy "probe: per-row helper" on public.idiom_probe for select to authenticated
				using (public.idiom_probe_helper(organization_id))`.execute(trx)
			await sql`create policy "probe: bare auth.uid()" on public.idiom_probe for update to authenticated
				using (organization_id in (select public.my_organization_ids()) and user_id = auth.uid())`.execute(trx)
			await sql`create policy "probe: own membership read" on public.idiom_probe for delete to authenticated
				using (exists (select 1 from public.organization_members m
					where m.organization_id = idiom_probe.organization_id and m.user_id = (select auth.uid())))`.execute(trx)
			await sql`create policy "probe: per-row predicate" on public.idiom_probe for insert to authenticated
				with check (organization_id = any (array(select public.my_organization_ids())))`.execute(trx)
			caught = offences((await policies(trx)).filter((p) => p.name.startsWith('probe:')))
			throw ROLLBACK
		}).catch((error: unknown) => {
			if (error !== ROLLBACK) throw error
		})
		expect(caught).toEqual([
			'idiom_probe · probe: bare auth.uid(): calls auth.uid( outside the idiom',
			'idiom_probe · probe: own membership read: is not scoped by public.my_organization_ids()',
			'idiom_probe · probe: own membership read: reads organization_members itself',
			'idiom_probe · probe: per-row helper: calls public.idiom_probe_helper( outside the idiom',
			'idiom_probe · probe: per-row helper: is not scoped by public.my_organization_ids()',
			'idiom_probe · probe: per-row predicate: calls ARRAY(, public.my_organization_ids( outside the idiom',
			'idiom_probe · probe: per-row predicate: is not scoped by public.my_organization_ids()',
		])
	})
})
