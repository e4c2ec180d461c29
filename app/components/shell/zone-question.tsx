import { AppForm } from '#app/components/forms/app-form.tsx'
import { LANGUAGE_ZONE_GUESS, SELECT_CLASS, useBrowserZone, ZoneOptions } from '#app/components/forms/timezone-select.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { zoneName } from '#app/lib/format.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The shell's question to the owner of an organization whose zone nobody chose (made through
 * Google sign-up, or before sign-up asked: docs/product.md, Time zones). With JavaScript it offers
 * this device's zone in one tap; without it, or when the device is on the same zone, a select of
 * zones in words, the language's guess first. "Keep" answers too: either way it is not asked again.
 */
export function ZoneQuestion({ zone, here }: { zone: string; here: string }) {
	const { t } = useTranslation()
	const { lng } = useFormat()
	const device = useBrowserZone()
	const current = zoneName(zone, lng)
	const offer = device && device !== zone ? device : null
	return (
		<section
			aria-labelledby="zone-question"
			className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b bg-muted px-3 py-2 text-sm md:px-4"
		>
			<p id="zone-question" className="min-w-0 flex-1 basis-64 break-words">
				{offer ? t('zoneQuestion.device', { zone: current, device: zoneName(offer, lng) }) : t('zoneQuestion.ask', { zone: current })}
			</p>
			<AppForm method="post" action="/app/zone" className="flex flex-wrap items-center gap-2">
				<input type="hidden" name="intent" value="use" />
				<input type="hidden" name="redirectTo" value={here} />
				{offer ? (
					<input type="hidden" name="timezone" value={offer} />
				) : (
					<>
						<label htmlFor="zone-question-select" className="sr-only">
							{t('zoneQuestion.label')}
						</label>
						<select id="zone-question-select" name="timezone" defaultValue={LANGUAGE_ZONE_GUESS[lng] ?? zone} className={SELECT_CLASS}>
							<ZoneOptions />
						</select>
					</>
				)}
				<Button type="submit" size="sm">
					{offer ? t('zoneQuestion.useDevice', { zone: zoneName(offer, lng) }) : t('zoneQuestion.use')}
				</Button>
			</AppForm>
			<AppForm method="post" action="/app/zone">
				<input type="hidden" name="intent" value="keep" />
				<input type="hidden" name="redirectTo" value={here} />
				<Button type="submit" size="sm" variant="outline">
					{t('zoneQuestion.keep', { zone: current })}
				</Button>
			</AppForm>
		</section>
	)
}
