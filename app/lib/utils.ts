import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

/** Joins class names and resolves conflicting Tailwind utilities (the last one wins). */
export function cn(...inputs: ClassValue[]) {
	return twMerge(clsx(inputs))
}

/** Text as a search compares it: blind to case and accents ("Revisión" and "revision" alike). */
export function searchKey(text: string) {
	return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase()
}
