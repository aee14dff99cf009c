import { describe, expect, it } from 'vitest'
import { stepKeyOf } from './stepKeys'

function key(k: string, target: Element = document.body, extra: Partial<KeyboardEvent> = {}) {
  return { key: k, target, ctrlKey: false, metaKey: false, altKey: false, defaultPrevented: false, repeat: false, ...extra }
}

function element(html: string, selector: string): Element {
  const host = document.createElement('div')
  host.innerHTML = html
  document.body.append(host)
  return host.querySelector(selector)!
}

const paused = { paused: true, stepSelected: false }

describe('stepKeyOf', () => {
  it('Space and → mean Next while paused', () => {
    expect(stepKeyOf(key(' '), paused)).toBe('next')
    expect(stepKeyOf(key('ArrowRight'), paused)).toBe('next')
    expect(stepKeyOf(key(' '), { paused: false, stepSelected: false })).toBeUndefined()
  })

  it('leaves keys typed into fields, menus and dialogs alone', () => {
    for (const [html, selector] of [
      ['<input>', 'input'],
      ['<textarea></textarea>', 'textarea'],
      ['<select></select>', 'select'],
      ['<div contenteditable="true"><p>x</p></div>', 'p'],
      ['<div role="dialog"><span>x</span></div>', 'span'],
      ['<ul role="listbox"><li>x</li></ul>', 'li'],
    ]) {
      expect(stepKeyOf(key(' ', element(html, selector)), paused)).toBeUndefined()
      expect(stepKeyOf(key('ArrowRight', element(html, selector)), paused)).toBeUndefined()
    }
  })

  it('leaves Space to a focused button, and arrows to a focused canvas node', () => {
    expect(stepKeyOf(key(' ', element('<button>x</button>', 'button')), paused)).toBeUndefined()
    expect(stepKeyOf(key('ArrowRight', element('<button>x</button>', 'button')), paused)).toBe('next')
    expect(stepKeyOf(key('ArrowRight', element('<div class="react-flow__node"><b>x</b></div>', 'b')), paused)).toBeUndefined()
  })

  it('ignores modified, repeated and handled keys', () => {
    expect(stepKeyOf(key(' ', document.body, { ctrlKey: true }), paused)).toBeUndefined()
    expect(stepKeyOf(key('ArrowRight', document.body, { repeat: true }), paused)).toBeUndefined()
    expect(stepKeyOf(key(' ', document.body, { defaultPrevented: true }), paused)).toBeUndefined()
  })

  it('B toggles the selected step’s breakpoint', () => {
    expect(stepKeyOf(key('b'), { paused: false, stepSelected: true })).toBe('breakpoint')
    expect(stepKeyOf(key('B'), { paused: true, stepSelected: true })).toBe('breakpoint')
    expect(stepKeyOf(key('b'), { paused: false, stepSelected: false })).toBeUndefined()
    expect(stepKeyOf(key('b', element('<input>', 'input')), { paused: false, stepSelected: true })).toBeUndefined()
  })
})
