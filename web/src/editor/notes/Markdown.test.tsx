import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import Markdown from './Markdown'
import { blocks } from './markdownBlocks'

describe('note Markdown', () => {
  it('splits paragraphs and lists', () => {
    expect(blocks('One\ntwo\n\n- a\n- b\n1. x\n\nEnd')).toEqual([
      { kind: 'p', lines: ['One', 'two'] },
      { kind: 'ul', items: ['a', 'b'] },
      { kind: 'ol', items: ['x'] },
      { kind: 'p', lines: ['End'] },
    ])
  })

  it('renders emphasis, strong and code', () => {
    const { container } = render(<Markdown text={'**Bold** and *it* and `code` and a*b'} />)
    expect(container.querySelector('strong')?.textContent).toBe('Bold')
    expect(container.querySelector('em')?.textContent).toBe('it')
    expect(container.querySelector('code')?.textContent).toBe('code')
    expect(container.textContent).toBe('Bold and it and code and a*b')
  })

  it('never renders HTML from the text', () => {
    const { container } = render(<Markdown text={'<img src=x onerror="alert(1)"> <b>hi</b>'} />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('b')).toBeNull()
    expect(container.textContent).toContain('<img src=x')
  })
})
