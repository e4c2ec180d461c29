import { createContext } from 'react-router'
import type { AuthUser } from './auth/local.ts'
import type { CurrentMember } from './organizations.ts'

/** The TCP peer's address, set by the server for throttling (see server.js). */
export const socketAddressContext = createContext<string | undefined>(undefined)

/** Set by the /app layout's middleware for every route below it. */
export const userContext = createContext<AuthUser | null>(null)
export const memberContext = createContext<CurrentMember | null>(null)
