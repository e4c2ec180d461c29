import { z } from 'zod'
import { CONTROL_CHARACTERS, SINGLE_LINE } from './fields.ts'

/**
 * The onboarding form (docs/product.md, Onboarding): a first organization's name, by the rules
 * of the organization form's (one line of at most 120 characters, fields.ts). Messages are
 * translation keys under common:onboarding.errors.
 */
export const newOrganizationSchema = z.object({
	name: z.string({ error: 'nameRequired' }).trim().min(1, 'nameRequired').max(120, 'nameTooLong').regex(SINGLE_LINE, CONTROL_CHARACTERS),
})
