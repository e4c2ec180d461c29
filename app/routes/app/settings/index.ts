import { redirect } from 'react-router'

/** The profile is Settings' first tab (docs/product.md, Settings). */
export function loader() {
	return redirect('/app/settings/profile')
}
