import type { SessionInfo } from '#app/.server/auth/types.ts'

/** A session as the profile page shows it: its times already in the organization's timezone. */
export type SessionShown = Omit<SessionInfo, 'signedInAt' | 'lastSeen'> & {
	signedInAt: { date: string; time: string }
	lastSeen: { date: string; time: string }
}
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** How many sessions the card lists: this device first, then the latest others ("Sign out everywhere else" ends them all). */
const SESSIONS_SHOWN = 5

/**
 * The security card of the profile tab: the sessions the auth adapter lists (none with Supabase
 * Auth), a "Sign out" beside each other one, "Sign out everywhere else" and this device's sign-out.
 */
export function SecurityCard({ sessions }: { sessions: SessionShown[] }) {
	const fmt = useFormat()
	const { t } = useTranslation('settings')
	const others = sessions.filter((s) => !s.current).length
	const hidden = Math.max(sessions.length - SESSIONS_SHOWN, 0)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('security.title')}</h2>
				</CardTitle>
				<CardDescription>{t('security.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				<ul className="grid gap-2" aria-label={t('security.sessions')}>
					{sessions.slice(0, SESSIONS_SHOWN).map((s) => {
						const device = describeDevice(s.userAgent) ?? t('security.unknownDevice')
						return (
							<li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
								<div className="min-w-0">
									<p className="font-medium break-words">
										{device}
										{s.current ? (
											<span className="ml-2 rounded bg-primary/10 px-1.5 py-0.5 text-xs text-primary">{t('security.thisDevice')}</span>
										) : null}
									</p>
									<p className="text-muted-foreground">
										{t('security.seen', { address: s.ip ?? '—', when: fmt.dateTime(s.lastSeen), since: fmt.dateTime(s.signedInAt) })}
									</p>
								</div>
								{s.current ? null : (
									<AppForm method="post">
										<input type="hidden" name="intent" value="sign-out-session" />
										<input type="hidden" name="sessionId" value={s.id} />
										<Button type="submit" variant="outline" size="sm">
											{t('security.signOut')}
											{/* Which session, after the words the button shows (WCAG 2.5.3). */}
											<span className="sr-only">{t('security.endSessionSuffix', { device, when: fmt.dateTime(s.lastSeen) })}</span>
										</Button>
									</AppForm>
								)}
							</li>
						)
					})}
				</ul>
				{hidden > 0 ? <p className="text-sm text-muted-foreground">{t('security.more', { count: hidden })}</p> : null}
				<div className="flex flex-wrap gap-2">
					<AppForm method="post">
						<input type="hidden" name="intent" value="sign-out-others" />
						<Button type="submit" variant="outline" disabled={others === 0}>
							{t('security.signOutOthers')}
						</Button>
					</AppForm>
					<AppForm method="post" action="/auth/sign-out">
						<Button type="submit" variant="destructive">
							{t('security.signOut')}
						</Button>
					</AppForm>
				</div>
			</CardContent>
		</Card>
	)
}

/** "Firefox on Linux" from a user-agent string; null when it names neither. */
function describeDevice(userAgent: string | null) {
	if (!userAgent) return null
	const browser = /Edg\//.test(userAgent)
		? 'Edge'
		: /Firefox\//.test(userAgent)
			? 'Firefox'
			: /Chrome\//.test(userAgent)
				? 'Chrome'
				: /Safari\//.test(userAgent)
					? 'Safari'
					: null
	const os = /Windows/.test(userAgent)
		? 'Windows'
		: /Android/.test(userAgent)
			? 'Android'
			: /iPhone|iPad/.test(userAgent)
				? 'iOS'
				: /Mac OS X/.test(userAgent)
					? 'macOS'
					: /Linux/.test(userAgent)
						? 'Linux'
						: null
	if (!browser && !os) return userAgent.slice(0, 60)
	return [browser, os].filter(Boolean).join(' · ')
}
