import { useSearchParams } from 'react-router'
import { withParams } from './table-params.ts'

/** Links to this page with some search parameters set or removed (null), the others kept. */
export function useParamsHref() {
	const [params] = useSearchParams()
	return (changes: Record<string, string | null>) => withParams(params, changes)
}
