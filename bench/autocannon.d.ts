// The part of autocannon's API bench/book.ts uses (the package ships no types).
declare module 'autocannon' {
	namespace autocannon {
		type Result = { requests: { average: number }; latency: { p50: number; p99: number } }
	}
	function autocannon(
		options: { url: string; connections: number; duration: number; requests?: Array<{ setupRequest?: (req: { headers: Record<string, string> }) => unknown }> },
		callback: (error: Error | null, result: autocannon.Result) => void,
	): void
	export default autocannon
}
