import { describe, expect, it } from 'vitest'
import { loadRecents, MAX_RECENTS, saveRecents, textKey, withRecent, type RecentEntry } from './recents'

function entry(key: string, extra: Partial<RecentEntry> = {}): RecentEntry {
  return { key, name: key, openedAt: 0, ...extra }
}

describe('recents', () => {
  it('puts the newest first and removes duplicates', () => {
    const list = withRecent(withRecent([entry('a'), entry('b')], entry('c')), entry('a'))
    expect(list.map((e) => e.key)).toEqual(['a', 'c', 'b'])
  })

  it('replaces the pasted entry a workflow was saved from', () => {
    const list = withRecent([entry('recent:abc', { text: '{}' }), entry('b')], entry('file:a.vai-workflow.json'), 'recent:abc')
    expect(list.map((e) => e.key)).toEqual(['file:a.vai-workflow.json', 'b'])
  })

  it('keeps at most MAX_RECENTS', () => {
    let list: RecentEntry[] = []
    for (let i = 0; i < MAX_RECENTS + 3; i++) list = withRecent(list, entry(`k${i}`))
    expect(list).toHaveLength(MAX_RECENTS)
    expect(list[0].key).toBe(`k${MAX_RECENTS + 2}`)
  })

  it('does not remember huge texts', () => {
    expect(withRecent([], entry('x', { text: 'x'.repeat(600 * 1024) }))).toEqual([])
  })

  it('derives a stable key from the text', () => {
    expect(textKey('{"a":1}')).toBe(textKey('{"a":1}'))
    expect(textKey('{"a":1}')).not.toBe(textKey('{"a":2}'))
    expect(textKey('x')).toMatch(/^recent:[0-9a-z]+$/)
  })

  it('round-trips through storage and tolerates garbage', () => {
    const store = new Map<string, string>()
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    } as unknown as Storage
    saveRecents([entry('a', { text: '{}' })], storage)
    expect(loadRecents(storage)).toEqual([entry('a', { text: '{}' })])
    store.set('vai.recent.v1', '{not json')
    expect(loadRecents(storage)).toEqual([])
    store.set('vai.recent.v1', '[1, {"key": 2}, {"key": "ok", "name": "n"}]')
    expect(loadRecents(storage)).toEqual([{ key: 'ok', name: 'n' }])
  })
})
