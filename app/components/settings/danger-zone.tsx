import { useState } from 'react'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { DELETE_PHRASE } from '#app/lib/schemas/settings.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** The organization's deletion (owners), behind a disclosure and the typed phrase; the server checks the phrase again. */
export function DangerZone({ error }: { error: 'wrongPhrase' | undefined }) {
	const { t } = useTranslation('settings')
	const hydrated = useHydrated()
	const [typed, setTyped] = useState('')
	return (
		<Card className="border-destructive/50">
			<CardHeader>
				<CardTitle>
					<h2 className="text-destructive">{t('danger.title')}</h2>
				</CardTitle>
			</CardHeader>
			<CardContent>
				<details open={Boolean(error)}>
					<summary className="cursor-pointer text-sm font-medium">{t('danger.summary')}</summary>
					<AppForm method="post" className="mt-4 grid gap-4">
						<input type="hidden" name="intent" value="delete" />
						<p className="text-sm text-muted-foreground">{t('danger.warning')}</p>
						<Field
							label={t('danger.confirmLabel', { phrase: DELETE_PHRASE })}
							htmlFor="delete-confirmation"
							errorId="delete-error"
							error={error ? t(`danger.${error}`) : undefined}
						>
							<Input
								id="delete-confirmation"
								name="confirmation"
								autoComplete="off"
								value={typed}
								onChange={(e) => setTyped(e.currentTarget.value)}
								aria-invalid={error ? true : undefined}
								aria-describedby={error ? 'delete-error' : undefined}
							/>
						</Field>
						{/* Without JavaScript the button stays enabled; the server checks the phrase. */}
						<Button type="submit" variant="destructive" className="w-fit" disabled={hydrated && typed !== DELETE_PHRASE}>
							{t('danger.delete')}
						</Button>
					</AppForm>
				</details>
			</CardContent>
		</Card>
	)
}
