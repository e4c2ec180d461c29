import { EyeIcon, EyeOffIcon } from '#app/components/icons.tsx'
import { useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Input } from '#app/components/ui/input.tsx'
import { useHydrated } from '#app/lib/use-hydrated.ts'

/** A password field with a show/hide toggle (the toggle appears once JavaScript runs). */
export function PasswordInput(props: Omit<React.ComponentProps<typeof Input>, 'type'>) {
	const { t } = useTranslation('auth')
	const hydrated = useHydrated()
	const [visible, setVisible] = useState(false)
	return (
		<div className="relative">
			<Input {...props} type={visible ? 'text' : 'password'} className="pr-10" />
			{hydrated ? (
				<button
					type="button"
					onClick={() => setVisible((v) => !v)}
					className="absolute inset-y-0 right-0 flex w-10 items-center justify-center text-muted-foreground hover:text-foreground"
					aria-label={visible ? t('hidePassword') : t('showPassword')}
					aria-pressed={visible}
					aria-controls={props.id}
				>
					{visible ? <EyeOffIcon className="size-4" /> : <EyeIcon className="size-4" />}
				</button>
			) : null}
		</div>
	)
}
