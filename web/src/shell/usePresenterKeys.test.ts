import { afterEach, describe, expect, it } from 'vitest'
import { presenterKey } from './usePresenterKeys'

const key = (k: string, target: EventTarget = document.body, more: Partial<KeyboardEvent> = {}) => ({
  key: k,
  target,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  defaultPrevented: false,
  repeat: false,
  ...more,
})

describe('presenterKey', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('toggles on P (either case) and leaves on Escape only when on', () => {
    expect(presenterKey(key('p'), false)).toBe('toggle')
    expect(presenterKey(key('P'), true)).toBe('toggle')
    expect(presenterKey(key('Escape'), true)).toBe('leave')
    expect(presenterKey(key('Escape'), false)).toBeUndefined()
  })

  it('leaves keys typed into a field alone', () => {
    const input = document.body.appendChild(document.createElement('input'))
    const textarea = document.body.appendChild(document.createElement('textarea'))
    const editable = document.body.appendChild(document.createElement('div'))
    editable.setAttribute('contenteditable', 'true')
    const inside = editable.appendChild(document.createElement('span'))
    for (const target of [input, textarea, inside]) {
      expect(presenterKey(key('p', target), false)).toBeUndefined()
      expect(presenterKey(key('Escape', target), true)).toBeUndefined()
    }
  })

  it('does nothing while a dialog is open (Escape closes that)', () => {
    document.body.appendChild(document.createElement('div')).setAttribute('role', 'dialog')
    expect(presenterKey(key('p'), false)).toBeUndefined()
    expect(presenterKey(key('Escape'), true)).toBeUndefined()
  })

  it('ignores shortcuts with modifiers, repeats and handled keys', () => {
    expect(presenterKey(key('p', document.body, { ctrlKey: true }), false)).toBeUndefined()
    expect(presenterKey(key('p', document.body, { metaKey: true }), false)).toBeUndefined()
    expect(presenterKey(key('p', document.body, { repeat: true }), false)).toBeUndefined()
    expect(presenterKey(key('p', document.body, { defaultPrevented: true }), false)).toBeUndefined()
  })
})
