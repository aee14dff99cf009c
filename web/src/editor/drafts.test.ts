import { describe, expect, it } from 'vitest'
import { MemoryStorage } from './test/fakeEditorApi'
import { hasDraft, loadDraft, newKey, removeDraft, saveDraft, type Draft } from './drafts'

const draft: Draft = { key: 'file:a.vai-workflow.json', label: 'A', readOnly: false, savedJson: '{}', doc: { name: 'A', steps: [] }, savedAt: 1 }

describe('drafts', () => {
  it('keeps one draft per workflow key', () => {
    const storage = new MemoryStorage()
    expect(saveDraft(draft, storage)).toBe(true)
    expect(loadDraft(draft.key, storage)).toEqual(draft)
    expect(hasDraft('file:b.vai-workflow.json', storage)).toBe(false)
    removeDraft(draft.key, storage)
    expect(hasDraft(draft.key, storage)).toBe(false)
  })

  it('ignores a corrupt or foreign entry', () => {
    const storage = new MemoryStorage()
    storage.setItem(`vai.draft.v1:${draft.key}`, '{not json')
    expect(loadDraft(draft.key, storage)).toBeUndefined()
    storage.setItem(`vai.draft.v1:${draft.key}`, JSON.stringify({ ...draft, key: 'other' }))
    expect(loadDraft(draft.key, storage)).toBeUndefined()
  })

  it('reports a full storage instead of throwing', () => {
    const full = new MemoryStorage()
    full.setItem = () => {
      throw new DOMException('quota', 'QuotaExceededError')
    }
    expect(saveDraft(draft, full)).toBe(false)
  })

  it('names new workflows apart', () => {
    expect(newKey()).toMatch(/^new:[a-z0-9]+$/)
    expect(newKey()).not.toBe(newKey())
  })
})
