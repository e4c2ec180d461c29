/**
 * Calls made within one turn of the event loop, answered by one call of `run`: under load, the
 * requests that arrive together share one statement and one round trip instead of one each
 * (docs/decisions/035-gathered-statements.md). A lone call waits for nothing more than
 * `setImmediate`.
 *
 * `run` answers its inputs in their order. When it throws for several inputs, each is run again
 * on its own, so an input the database refuses fails only its own call.
 */
export function gathered<I, O>(run: (inputs: I[]) => Promise<O[]>): (input: I) => Promise<O> {
	type Waiting = { input: I; resolve: (output: O) => void; reject: (error: unknown) => void }
	let waiting: Waiting[] = []

	async function runWaiting() {
		const batch = waiting
		waiting = []
		try {
			const outputs = await run(batch.map((w) => w.input))
			batch.forEach((w, i) => w.resolve(outputs[i]!))
		} catch (error) {
			if (batch.length === 1) return batch[0]!.reject(error)
			for (const w of batch) run([w.input]).then(([output]) => w.resolve(output!), w.reject)
		}
	}

	return (input) =>
		new Promise<O>((resolve, reject) => {
			if (waiting.push({ input, resolve, reject }) === 1) setImmediate(runWaiting)
		})
}

/** Rows of a set-returning batch function (`n`: the input's position from 1) in the inputs' order. */
export function inInputOrder<R extends { n: number }>(rows: R[]): R[] {
	const ordered: R[] = []
	for (const row of rows) ordered[row.n - 1] = row
	return ordered
}
