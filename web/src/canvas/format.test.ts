import { expect, it } from 'vitest'
import { formatDuration } from './format'

it('formats durations for nodes', () => {
  expect(formatDuration(123)).toBe('123 ms')
  expect(formatDuration(0.4)).toBe('0 ms')
  expect(formatDuration(1234)).toBe('1.23 s')
  expect(formatDuration(12_345)).toBe('12.3 s')
  expect(formatDuration(125_000)).toBe('2 m 05 s')
})
