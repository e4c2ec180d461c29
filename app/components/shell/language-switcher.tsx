import { CheckIcon, LanguagesIcon } from '#app/components/icons.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useLocation } from 'react-router'
import { languageNames, supportedLanguages } from '#app/lib/i18n.ts'
import { cn } from '#app/lib/utils.ts'

/**
 * The language menu: a disclosure of three submit buttons posting to /preferences, so it
 * works without JavaScript; the page comes back in the chosen language.
 */
export function LanguageSwitcher({ className, iconOnPhones = false }: { className?: string; iconOnPhones?: boolean }) {
	const { t, i18n } = useTranslation()
	const location = useLocation()
	const current = i18n.language
	const currentName = languageNames[current as keyof typeof languageNames] ?? current
	return (
		<details data-menu key={current} className={cn('group relative', className)}>
			<summary
				className="flex h-9 cursor-pointer list-none items-center gap-2 rounded-md border bg-background px-3 text-sm shadow-xs hover:bg-accent [&::-webkit-details-marker]:hidden"
				// The visible name is part of the accessible one ("Language: English"), as WCAG 2.5.3 asks.
				aria-label={`${t('language.label')}: ${currentName}`}
			>
				<LanguagesIcon className="size-4" aria-hidden="true" />
				{/* A phone's top bar keeps its width for the organization's name: the icon alone there. */}
				<span className={iconOnPhones ? 'max-sm:sr-only' : undefined}>{currentName}</span>
			</summary>
			<AppForm
				method="post"
				action="/preferences"
				className="absolute right-0 z-50 mt-1 grid min-w-48 gap-1 rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
			>
				<input type="hidden" name="intent" value="language" />
				<input type="hidden" name="redirectTo" value={location.pathname + location.search} />
				{supportedLanguages.map((lng) => (
					<button
						key={lng}
						type="submit"
						name="language"
						value={lng}
						lang={lng}
						aria-current={lng === current ? 'true' : undefined}
						className="flex items-center justify-between gap-2 rounded-sm px-2 py-1.5 text-left text-sm hover:bg-accent"
					>
						{/* Each language in its own name: a reader finds theirs whatever the page's language. */}
						{languageNames[lng]}
						{lng === current ? <CheckIcon className="size-4" aria-hidden="true" /> : null}
					</button>
				))}
			</AppForm>
		</details>
	)
}
