import { z } from 'zod'

/** The marketplace's forms: one intent per action, the module it concerns. */
export const marketplaceActionSchema = z.object({
	intent: z.enum(['activate', 'deactivate', 'favorite', 'unfavorite']),
	moduleId: z.uuid(),
})
