import { createContext } from 'react-router'
import type { CurrentMember } from './organizations.ts'

/** The TCP peer's address, set by the server for throttling (see server.js). */
export const socketAddressContext = createContext<string | undefined>(undefined)

/** The signed-in member and current organization, set by the /app layout's middleware. */
export const memberContext = createContext<CurrentMember | null>(null)
