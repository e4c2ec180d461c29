/**
 * The field every form of the signed-in app posts with the organization it was rendered for
 * (`AppForm`): a save from a tab left open on one organization lands in that organization, even
 * after another tab switched to another (docs/decisions/029).
 */
export const ORGANIZATION_FIELD = '_org'
