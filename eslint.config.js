import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import react from 'eslint-plugin-react'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
	{ ignores: ['build/', '.react-router/', 'node_modules/', 'tests/.tmp/', 'app/.server/db/types.ts'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['**/*.{ts,tsx,js}'],
		languageOptions: { globals: { ...globals.node, ...globals.browser } },
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-control-regex': 'off',
		},
	},
	{
		files: ['app/**/*.tsx'],
		plugins: { react, 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
		settings: { react: { version: 'detect' } },
		rules: {
			...react.configs.recommended.rules,
			...react.configs['jsx-runtime'].rules,
			...reactHooks.configs.recommended.rules,
			...jsxA11y.flatConfigs.recommended.rules,
			'react/prop-types': 'off',
			// Every visible string comes from the translation files: no text literal in JSX.
			'react/jsx-no-literals': [
				'error',
				{ noStrings: false, allowedStrings: ['·', '—', '/', '$', '%', '+', '×', '…', ':', '(', ')'], ignoreProps: true },
			],
		},
	},
	{
		files: ['app/**/*.{ts,tsx}'],
		ignores: ['app/lib/use-translation.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						{
							name: 'react-i18next',
							importNames: ['useTranslation'],
							message: "Use '#app/lib/use-translation.ts': react-i18next's hook is costly on the server.",
						},
						{
							name: 'react-router',
							importNames: ['Link', 'NavLink'],
							message: "Use '#app/components/link.tsx': plain anchors that one listener navigates (docs/decisions/031-plain-links.md).",
						},
						{
							name: 'lucide-react',
							message:
								"Use '#app/components/icons.tsx' (add the name to app/components/icon-names.ts, then run scripts/icon-sprite.tsx): icons come from the sprite.",
						},
					],
				},
			],
		},
	},
	{
		// A post from the signed-in app says which organization its page was for (docs/decisions/029).
		files: ['app/routes/app/**/*.tsx', 'app/components/**/*.tsx'],
		ignores: ['app/components/forms/app-form.tsx'],
		rules: {
			'no-restricted-syntax': [
				'error',
				{
					selector: "JSXOpeningElement[name.name=/^(Form|form)$/]:has(JSXAttribute[name.name='method'][value.value=/^post$/i])",
					message: "Use AppForm ('#app/components/forms/app-form.tsx'): it posts the organization the page was rendered for.",
				},
			],
		},
	},
	{
		// Imports go one way, routes → components → .server → lib, and never in a circle
		// (docs/decisions/038-layers-and-areas.md). import-x/no-cycle skips type-only imports;
		// tests/unit/import-graph.test.ts checks those too.
		files: ['app/**/*.{ts,tsx,js}'],
		plugins: { 'import-x': importX },
		settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })] },
		rules: {
			'import-x/no-cycle': ['error', { ignoreExternal: true }],
			'import-x/no-restricted-paths': [
				'error',
				{
					zones: [
						{
							target: './app/lib',
							from: ['./app/.server', './app/components', './app/routes'],
							message: 'lib is shared by the server and the browser: it imports nothing of the app above it.',
						},
						{
							target: './app/.server',
							from: ['./app/components', './app/routes'],
							message: 'Server code serves routes; it never imports them or their components.',
						},
						{
							target: './app/components',
							from: ['./app/routes'],
							message: 'Components do not import route modules: take what they need as props or through app/lib/app-layout.ts.',
						},
					],
				},
			],
		},
	},
	{
		files: ['tests/**/*.ts'],
		rules: { 'no-empty-pattern': 'off' },
	},
)
