import { z } from 'zod'
import { MODULE_VISIBILITIES } from '#app/lib/modules.ts'

/** The marketplace's forms: one intent per action, the module it concerns. */
export const marketplaceActionSchema = z.object({
	intent: z.enum(['activate', 'deactivate', 'favorite', 'unfavorite']),
	moduleId: z.uuid(),
})

/** The module screen's forms (docs/product.md, Module detail). */
export const moduleDetailActionSchema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('saveSettings'),
		visibility: z.enum(MODULE_VISIBILITIES),
		emailNotifications: z.boolean().optional(),
	}),
	z.object({ intent: z.literal('resetSettings') }),
	z.object({ intent: z.literal('activate') }),
	z.object({ intent: z.literal('deactivate') }),
	z.object({ intent: z.literal('purchaseUpgrade'), upgradeId: z.uuid() }),
	z.object({ intent: z.literal('removeUpgrade'), upgradeId: z.uuid() }),
])
