import type { ComponentProps } from 'react'
import { Form, useRouteLoaderData } from 'react-router'
import { ORGANIZATION_FIELD } from '#app/lib/organization-field.ts'
import { APP_LAYOUT_ROUTE, type AppLayoutData } from '#app/lib/app-layout.ts'

/**
 * React Router's `Form` that, inside the signed-in app, posts the organization the page was
 * rendered for (ORGANIZATION_FIELD): the /app layout acts on that organization, not on whichever
 * another tab switched to since. Every post form of the app uses it (a lint rule says so).
 */
export function AppForm({ children, ...props }: ComponentProps<typeof Form>) {
	const organizationId = useRouteLoaderData<AppLayoutData>(APP_LAYOUT_ROUTE)?.organization.id
	const posts = props.method?.toLowerCase() === 'post'
	return (
		<Form {...props}>
			{posts && organizationId ? <input type="hidden" name={ORGANIZATION_FIELD} value={organizationId} /> : null}
			{children}
		</Form>
	)
}
