/**
 * The profile side of Settings (docs/product.md, Settings): the user's profile and picture.
 * Profile rows are read and written as the user (RLS: own row only). The password and the
 * sessions are the auth adapter's (app/.server/auth/port.ts: changePassword, listSessions…).
 */
import { asUser, dbErrorCode } from '../db/index.ts'
import { removePicture, replacePicture, type PictureRefusal, type PictureTarget } from '../images.ts'
import type { ProfileValues } from '#app/lib/schemas/settings.ts'

export type Profile = {
	fullName: string | null
	username: string | null
	email: string
	phone: string | null
	avatarUrl: string | null
	preferredLanguage: string | null
	createdAt: string
	/** When the profile was last saved: a form made from it is made anew after each save. */
	updatedAt: string
}

export async function getProfile(userId: string): Promise<Profile> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('profiles')
			.select(['full_name', 'username', 'email', 'phone', 'avatar_url', 'preferred_language', 'created_at', 'updated_at'])
			.where('user_id', '=', userId)
			.executeTakeFirstOrThrow(),
	)
	return {
		fullName: row.full_name,
		username: row.username,
		email: row.email ?? '',
		phone: row.phone,
		avatarUrl: row.avatar_url,
		preferredLanguage: row.preferred_language,
		createdAt: new Date(row.created_at).toISOString(),
		updatedAt: new Date(row.updated_at).toISOString(),
	}
}

/**
 * The language to remember at a sign-in: the profile's, or, for a profile that never saved one
 * (made before sign-ups saved theirs), the language of the page signed in from, saved now so that
 * mails follow it.
 */
export async function languageAtSignIn(userId: string, pageLanguage: string): Promise<string | null> {
	return asUser(userId, async (trx) => {
		const saved = await trx
			.updateTable('profiles')
			.set({ preferred_language: pageLanguage })
			.where('user_id', '=', userId)
			.where('preferred_language', 'is', null)
			.returning('preferred_language')
			.executeTakeFirst()
		if (saved) return saved.preferred_language
		const profile = await trx.selectFrom('profiles').select('preferred_language').where('user_id', '=', userId).executeTakeFirst()
		return profile?.preferred_language ?? null
	})
}

/** Saves name, username, phone and language; `username_taken` when another profile has the username. */
export async function updateProfile(userId: string, values: ProfileValues): Promise<{ ok: true } | { ok: false; code: 'username_taken' }> {
	try {
		await asUser(userId, (trx) =>
			trx
				.updateTable('profiles')
				.set({ full_name: values.fullName, username: values.username, phone: values.phone, preferred_language: values.preferredLanguage })
				.where('user_id', '=', userId)
				.execute(),
		)
		return { ok: true }
	} catch (error) {
		if (dbErrorCode(error) === '23505') return { ok: false, code: 'username_taken' }
		throw error
	}
}

/** The user's picture: `{user_id}/avatar.{jpg|png}` in the avatars bucket, pointed at by their profile. */
function avatarOf(userId: string): PictureTarget {
	return {
		bucket: 'avatars',
		folder: userId,
		name: 'avatar',
		lock: (trx) =>
			trx
				.selectFrom('profiles')
				.select('avatar_url as url')
				.where('user_id', '=', userId)
				.forUpdate()
				.executeTakeFirst()
				.then((row) => row ?? null),
		record: async (trx, url) => {
			await trx.updateTable('profiles').set({ avatar_url: url }).where('user_id', '=', userId).execute()
		},
	}
}

/** Checks and re-encodes the picture, stores it at {user_id}/avatar.{ext} and points the profile at it (images.ts, replacePicture). */
export function setAvatar(userId: string, file: Blob): Promise<{ ok: true; url: string } | { ok: false; code: PictureRefusal }> {
	return replacePicture(userId, file, avatarOf(userId))
}

/** The profile points at no picture, and the user's avatar files go. */
export async function removeAvatar(userId: string) {
	await removePicture(userId, avatarOf(userId))
}
