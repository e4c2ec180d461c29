// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
	namespace autocannon {
		type Result = {
			requests: { average: number; total: number }
			latency: { p50: number; p99: number; average: number }
			non2xx: number
			errors: number
			timeouts: number
			statusCodeStats?: Record<string, { count: number }>
		}
	}
	function autocannon(
		options: {
			url: string
			connections: number
			duration: number
			headers?: Record<string, string>
			requests?: Array<{ setupRequest?: (req: { headers: Record<string, string> }) => unknown }>
		},
		callback: (error: Error | null, result: autocannon.Result) => void,
	): void
	export default autocannon
}
