import { expect, it } from 'vitest'
import { formatDuration, TAIL_CHARS, textTail } from './format'

it('formats durations for nodes', () => {
  expect(formatDuration(123)).toBe('123 ms')
  expect(formatDuration(0.4)).toBe('0 ms')
  expect(formatDuration(1234)).toBe('1.23 s')
  expect(formatDuration(12_345)).toBe('12.3 s')
  expect(formatDuration(125_000)).toBe('2 m 05 s')
})

it('keeps the end of a running step’s text on one line', () => {
  expect(textTail('  To rotate\n a key,\tcall it.  ')).toBe('To rotate a key, call it.')
  const long = `${'a'.repeat(200)} the newest words`
  const tail = textTail(long)
  expect(tail.startsWith('…')).toBe(true)
  expect(tail.endsWith('the newest words')).toBe(true)
  expect(tail.length).toBe(TAIL_CHARS + 1)
  // Not half an emoji at the cut.
  expect(textTail(`${'😀'.repeat(100)}`).codePointAt(1)).toBe(0x1f600)
})
