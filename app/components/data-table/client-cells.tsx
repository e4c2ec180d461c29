import { useTranslation } from '#app/lib/use-translation.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import type { ClientStatus } from '#app/lib/schemas/clients.ts'

const variants = { active: 'success', inactive: 'secondary', pending: 'warning' } as const satisfies Record<ClientStatus, string>

/** A client's status as a coloured, translated badge. */
export function ClientStatusBadge({ status }: { status: ClientStatus }) {
	const { t } = useTranslation('clients')
	return <Badge variant={variants[status]}>{t(`statuses.${status}`)}</Badge>
}
