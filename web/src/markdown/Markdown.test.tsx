import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import Markdown from './Markdown'

function drawn(text: string, cite?: (n: number, nth: number) => string | undefined) {
  render(<Markdown text={text} cite={cite} data-testid="md" />)
  return screen.getByTestId('md')
}

describe('Markdown', () => {
  it('draws headings, lists, bold, italic, code and fenced code as elements', () => {
    const root = drawn('# Keys\n## Rotating\nUse **rotate** or *revoke*, see `vai keys`.\n\n- one\n- two\n\n1. first\n\n```sh\nvai keys rotate\n```')
    expect(screen.getByRole('heading', { level: 4, name: 'Keys' })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 5, name: 'Rotating' })).toBeTruthy()
    expect(root.querySelector('strong')?.textContent).toBe('rotate')
    expect(root.querySelector('em')?.textContent).toBe('revoke')
    expect(root.querySelector('p code')?.textContent).toBe('vai keys')
    expect(Array.from(root.querySelectorAll('ul > li')).map((li) => li.textContent)).toEqual(['one', 'two'])
    expect(root.querySelector('ol > li')?.textContent).toBe('first')
    expect(root.querySelector('pre code')?.textContent).toBe('vai keys rotate')
  })

  it('shows <script> and other HTML as text, never as elements', () => {
    const root = drawn(
      '<script>window.__pwned = 1</script>\n\n<img src=x onerror="alert(1)"> **<b>bold</b>**\n\n```\n<iframe src="https://example.com"></iframe>\n```',
    )
    expect(root.querySelector('script, img, b, iframe')).toBeNull()
    expect(root.textContent).toContain('<script>window.__pwned = 1</script>')
    expect(root.textContent).toContain('<img src=x onerror="alert(1)">')
    expect(root.querySelector('strong')?.textContent).toBe('<b>bold</b>')
    expect(root.querySelector('pre')?.textContent).toBe('<iframe src="https://example.com"></iframe>')
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined()
  })

  it('links only http(s) targets, in a new tab without a referrer; others are text', () => {
    const root = drawn('[docs](https://example.com/keys) and [bad](javascript:alert) and [file](file:///etc/passwd)')
    const links = root.querySelectorAll('a')
    expect(links).toHaveLength(1)
    expect(links[0].getAttribute('href')).toBe('https://example.com/keys')
    expect(links[0].getAttribute('rel')).toBe('noreferrer')
    expect(links[0].getAttribute('target')).toBe('_blank')
    expect(root.textContent).toBe('docs and bad and file')
  })

  it('draws [n] with `cite`, counting each number’s citations, and as text without it', () => {
    const calls: [number, number][] = []
    const root = drawn('A [1]. B [2]. C [1]. D [7].', (n, nth) => {
      calls.push([n, nth])
      return n === 7 ? undefined : `<${n}.${nth}>`
    })
    expect(calls).toEqual([
      [1, 0],
      [2, 0],
      [1, 1],
      [7, 0],
    ])
    expect(root.textContent).toBe('A <1.0>. B <2.0>. C <1.1>. D [7].')
  })
})
