import { createContext } from 'react-router'
import type { ActiveModule } from './marketplace/modules.ts'
import type { CurrentMember } from './organizations/current.ts'

/** The TCP peer's address, set by the server for throttling (see server.js). */
export const socketAddressContext = createContext<string | undefined>(undefined)

/** The signed-in member and current organization, set by the /app layout's middleware. */
export const memberContext = createContext<CurrentMember | null>(null)

/** The current organization's modules the member sees in the sidebar, read with the member. */
export const activeModulesContext = createContext<ActiveModule[]>([])

/**
 * The organization a posted form was rendered for (ORGANIZATION_FIELD), read by the request
 * guard from the body it checks anyway; null when the request posts none.
 */
export const formOrganizationContext = createContext<string | null>(null)
