import type { ComponentProps } from 'react'
import { Form, useRouteLoaderData } from 'react-router'
import { ORGANIZATION_FIELD } from '#app/lib/organization-field.ts'
import type { loader as appLayoutLoader } from '#app/routes/app/layout.tsx'

/**
 * React Router's `Form` that, inside the signed-in app, posts the organization the page was
 * rendered for (ORGANIZATION_FIELD): the /app layout acts on that organization, not on whichever
 * another tab switched to since. Every post form of the app uses it (a lint rule says so).
 */
export function AppForm({ children, ...props }: ComponentProps<typeof Form>) {
	const organizationId = useRouteLoaderData<typeof appLayoutLoader>('routes/app/layout')?.organization.id
	const posts = props.method?.toLowerCase() === 'post'
	return (
		<Form {...props}>
			{posts && organizationId ? <input type="hidden" name={ORGANIZATION_FIELD} value={organizationId} /> : null}
			{children}
		</Form>
	)
}
