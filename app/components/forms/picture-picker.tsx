import { useEffect, useState } from 'react'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { StoreIcon, UploadIcon } from '#app/components/icons.tsx'
import { Button, buttonVariants } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { cn } from '#app/lib/utils.ts'

/** What the picker of one picture needs: its form's field and intents, its current address, and its texts. */
export type PicturePickerProps = {
	/** The file field's name, also the base of the element ids ("avatar", "logo"). */
	name: string
	uploadIntent: string
	removeIntent: string
	/** The picture saved now, or null. */
	current: string | null
	/** A round avatar (cropped square by the server) or a logo kept whole in its box (its aspect ratio). */
	shape: 'round' | 'box'
	/** Shown in place of a picture when there is none (the avatar's initials); nothing for a logo. */
	fallback?: string
	testId: string
	labels: { alt: string; choose: string; save: string; remove: string }
}

/**
 * The one picture picker of the settings (avatar and logo alike; docs/product.md, Settings): the
 * picture as it is now, a button in the app's language over a visually hidden file input (never
 * the browser's "Choose file / No file chosen"), Save and Remove. With JavaScript the chosen file
 * shows as the preview before it is saved; without it the page says a file is chosen (CSS, from
 * the input's validity) and Save uploads it, the preview showing the saved picture.
 */
export function PicturePicker({ name, uploadIntent, removeIntent, current, shape, fallback, testId, labels }: PicturePickerProps) {
	const { t } = useTranslation('settings')
	const [picked, setPicked] = useState<{ url: string; name: string; over: string | null } | null>(null)
	// A preview's object URL lives until another file is chosen or the picker goes.
	useEffect(() => () => (picked ? URL.revokeObjectURL(picked.url) : undefined), [picked])
	// A preview stands over the picture it was chosen over: once saved (a new address), the saved one shows.
	const chosen = picked && picked.over === current ? picked : null
	const shown = chosen?.url ?? current
	const frame = shape === 'round' ? 'size-16 rounded-full' : 'h-16 w-40 rounded-md border bg-background'
	const inputId = `${name}-file`
	return (
		<div className="flex flex-wrap items-center gap-4">
			{shown ? (
				<img
					src={shown}
					alt={chosen ? t('picture.previewAlt', { name: chosen.name }) : labels.alt}
					width={shape === 'round' ? 64 : 160}
					height={64}
					// A logo keeps its aspect ratio inside its box; an avatar fills its circle.
					className={cn(frame, 'shrink-0', shape === 'round' ? 'object-cover' : 'object-contain p-1')}
					data-testid={testId}
				/>
			) : fallback ? (
				<span aria-hidden="true" className={cn(frame, 'flex shrink-0 items-center justify-center bg-muted text-xl font-semibold')}>
					{fallback}
				</span>
			) : (
				<span aria-hidden="true" className={cn(frame, 'flex shrink-0 items-center justify-center text-muted-foreground')}>
					<StoreIcon className="size-6" />
				</span>
			)}
			<div className="grid gap-2">
				<AppForm method="post" encType="multipart/form-data" className="group flex flex-wrap items-center gap-2">
					<input type="hidden" name="intent" value={uploadIntent} />
					{/* The label is the button: a click (or Enter/Space on the focused input inside) opens the file dialog. */}
					<label
						htmlFor={inputId}
						className={cn(
							buttonVariants({ variant: 'outline' }),
							'min-h-11 cursor-pointer has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring has-[input:focus-visible]:ring-offset-2 sm:min-h-9',
						)}
					>
						<UploadIcon aria-hidden="true" />
						{labels.choose}
						<input
							id={inputId}
							name={name}
							type="file"
							accept="image/jpeg,image/png,image/gif"
							required
							className="sr-only"
							aria-describedby={`${name}-hint`}
							onChange={(event) => {
								const file = event.currentTarget.files?.[0]
								setPicked(file ? { url: URL.createObjectURL(file), name: file.name, over: current } : null)
							}}
						/>
					</label>
					<SubmitButton intent={uploadIntent} label={labels.save} pendingLabel={t('avatar.uploading')} className="min-h-11 sm:min-h-9" />
					{/* Without JavaScript no preview: the input's validity says a file is chosen. */}
					<p className="hidden w-full text-sm group-has-[input:valid]:block" role="status">
						{chosen ? t('picture.chosenNamed', { name: chosen.name }) : t('picture.chosen')}
					</p>
				</AppForm>
				<p id={`${name}-hint`} className="text-xs text-muted-foreground">
					{t('avatar.hint')}
				</p>
				{current ? (
					<AppForm method="post">
						<input type="hidden" name="intent" value={removeIntent} />
						<Button type="submit" variant="outline" size="sm" className="min-h-11 sm:min-h-8">
							{labels.remove}
						</Button>
					</AppForm>
				) : null}
			</div>
		</div>
	)
}
