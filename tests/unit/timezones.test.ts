import { describe, expect, test } from 'vitest'
import { DISPLAY_TIMEZONES, zoneLabel } from '#app/lib/timezones.ts'

describe('zoneLabel', () => {
	test('names a zone in words in the reader language, with its city', () => {
		expect(zoneLabel('America/Los_Angeles', 'en')).toBe('Pacific Time (Los Angeles)')
		expect(zoneLabel('America/Los_Angeles', 'es')).toBe('Hora del Pacífico (Los Angeles)')
		expect(zoneLabel('America/Sao_Paulo', 'pt-BR')).toBe('Horário Padrão de Brasília (São Paulo)')
		expect(zoneLabel('America/New_York', 'es')).toBe('Hora oriental (Nueva York)')
		expect(zoneLabel('UTC', 'en')).toBe('Coordinated Universal Time')
	})

	test('tells apart every offered zone in every language, and never shows a raw id', () => {
		for (const language of ['en', 'es', 'pt-BR']) {
			const labels = DISPLAY_TIMEZONES.map((zone) => zoneLabel(zone, language))
			expect(new Set(labels).size).toBe(labels.length)
			for (const label of labels) expect(label).not.toMatch(/[/_]|GMT/)
		}
	})

	test('an id the runtime does not know comes back as it is', () => {
		expect(zoneLabel('Mars/Olympus_Mons', 'en')).toBe('Mars/Olympus_Mons')
	})
})
