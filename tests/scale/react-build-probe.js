// A probe that tests/scale/production-build.test.ts loads into the server (node --import): once
// the server has loaded React, it prints which build of React and of React DOM's server renderer
// the server runs, production or development.
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(path.join(process.cwd(), 'server.js'))
const loaded = (id) => require.cache[require.resolve(id)]?.loaded === true
const cjs = (id, file) => require.cache[path.join(path.dirname(require.resolve(id)), 'cjs', file)]?.exports

const timer = setInterval(() => {
	if (!loaded('react') || !loaded('react-dom/server')) return
	clearInterval(timer)
	const react = require('react') === cjs('react', 'react.production.js') ? 'production' : 'development'
	const server =
		require('react-dom/server').renderToPipeableStream ===
		cjs('react-dom/server', 'react-dom-server.node.production.js')?.renderToPipeableStream
			? 'production'
			: 'development'
	console.log(`react build: ${react}, react-dom/server build: ${server}`)
}, 20)
timer.unref()
