import { CircleDotIcon, PlusIcon, SaveIcon } from '#app/components/icons.tsx'
import { useEffect, useRef } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useBlocker, useNavigate, useNavigation, type Blocker } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#app/components/ui/dialog.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'

/**
 * Leaving a table's edit mode with unsaved changes asks first. With JavaScript, a
 * link (Cancel, another page, another screen) is held by a blocker until the user answers the
 * dialog, and closing or reloading the tab asks through the browser (beforeunload). Saving
 * (a submission to the same URL, then its redirect) is never held.
 */
export function useUnsavedChangesGuard(dirty: boolean) {
	const saving = useRef(false)
	const navigation = useNavigation()
	useEffect(() => {
		if (navigation.state === 'idle') saving.current = false
	}, [navigation.state])

	const blocker = useBlocker(
		({ currentLocation, nextLocation }) =>
			dirty && !saving.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
	)

	useEffect(() => {
		if (!dirty) return
		const onBeforeUnload = (event: BeforeUnloadEvent) => {
			if (saving.current) return
			event.preventDefault()
			// Older browsers need a return value to show their prompt.
			event.returnValue = ''
		}
		window.addEventListener('beforeunload', onBeforeUnload)
		return () => window.removeEventListener('beforeunload', onBeforeUnload)
	}, [dirty])

	return {
		blocker,
		/** Call from the save form's onSubmit: its redirect must not be held. */
		markSaving: () => {
			saving.current = true
		},
	}
}

/** The "discard unsaved changes?" question for a held navigation. */
export function UnsavedChangesDialog({ blocker }: { blocker: Blocker }) {
	const { t } = useTranslation('table')
	const open = blocker.state === 'blocked'
	return (
		<Dialog open={open} onOpenChange={(next) => (!next && blocker.state === 'blocked' ? blocker.reset() : undefined)}>
			<DialogContent showCloseButton={false} role="alertdialog">
				<DialogHeader>
					<DialogTitle>{t('discard.title')}</DialogTitle>
					<DialogDescription>{t('discard.description')}</DialogDescription>
				</DialogHeader>
				<DialogFooter>
					<Button variant="outline" onClick={() => blocker.reset?.()}>
						{t('keepEditing')}
					</Button>
					<Button variant="destructive" onClick={() => blocker.proceed?.()}>
						{t('discard.confirm')}
					</Button>
				</DialogFooter>
			</DialogContent>
		</Dialog>
	)
}

/** The unsaved-changes flag of a table's edit mode. */
export function UnsavedBadge({ dirty }: { dirty: boolean }) {
	const { t } = useTranslation('table')
	if (!dirty) return null
	return (
		<Badge variant="warning" role="status">
			<CircleDotIcon aria-hidden="true" />
			{t('unsavedChanges')}
		</Badge>
	)
}

/**
 * The edit mode's toolbar: add a row (a conform insert button, so it works without
 * JavaScript), save the batch, cancel (back to the table, asking first when rows changed), and
 * the unsaved flag.
 */
export function EditToolbar({
	addButtonProps,
	addDisabledReason,
	saving,
	cancelHref,
	dirty,
}: {
	addButtonProps: React.ComponentProps<'button'>
	/** Why no row can be added: the button is disabled and says so. */
	addDisabledReason?: string
	saving: boolean
	cancelHref: string
	dirty: boolean
}) {
	const { t } = useTranslation('table')
	const navigate = useNavigate()
	return (
		<div className="flex flex-wrap items-center gap-2">
			<Button
				type="submit"
				variant="outline"
				{...addButtonProps}
				disabled={addDisabledReason ? true : addButtonProps.disabled}
				aria-describedby={addDisabledReason ? 'add-row-reason' : undefined}
			>
				<PlusIcon aria-hidden="true" />
				{t('addRow')}
			</Button>
			<Button type="submit" name="intent" value="save" disabled={saving}>
				{saving ? <Spinner aria-label={t('saving')} /> : <SaveIcon aria-hidden="true" />}
				{saving ? t('saving') : t('save')}
			</Button>
			{/*
			 * With JavaScript, a navigation the unsaved-changes guard may hold; without, a post that
			 * answers "Discard unsaved changes?" when the rows changed (tableAction).
			 */}
			<Button
				type="submit"
				name="intent"
				value="cancel"
				variant="ghost"
				formNoValidate
				onClick={(event) => {
					event.preventDefault()
					void navigate(cancelHref)
				}}
			>
				{t('cancel')}
			</Button>
			<UnsavedBadge dirty={dirty} />
			{addDisabledReason ? (
				<p id="add-row-reason" className="basis-full text-sm text-muted-foreground">
					{addDisabledReason}
				</p>
			) : null}
		</div>
	)
}
