import { describe, expect, it } from 'vitest'
import { looksLikeMarkdown, parseInline, parseMarkdown, type Inline } from './markdown'

const t = (text: string): Inline => ({ type: 'text', text })

describe('parseMarkdown: blocks', () => {
  it('splits paragraphs on blank lines and keeps single newlines as breaks', () => {
    expect(parseMarkdown('One line\nthe next\n\nA second paragraph')).toEqual([
      { type: 'paragraph', children: [t('One line'), { type: 'break' }, t('the next')] },
      { type: 'paragraph', children: [t('A second paragraph')] },
    ])
  })

  it('reads #, ## and ### headings; deeper ones are drawn as ###', () => {
    expect(parseMarkdown('# Title\n## Part\n### Detail\n#### Deeper ##')).toEqual([
      { type: 'heading', level: 1, children: [t('Title')] },
      { type: 'heading', level: 2, children: [t('Part')] },
      { type: 'heading', level: 3, children: [t('Detail')] },
      { type: 'heading', level: 3, children: [t('Deeper')] },
    ])
    // No space after the hashes: not a heading.
    expect(parseMarkdown('#hashtag')[0].type).toBe('paragraph')
  })

  it('reads - and 1. lists, their start, lazy continuation lines and a nested list', () => {
    const [list] = parseMarkdown('3. first\n   still first\n4. second\n   - inner a\n   - inner b')
    expect(list).toEqual({
      type: 'list',
      ordered: true,
      start: 3,
      items: [
        [{ type: 'paragraph', children: [t('first'), { type: 'break' }, t('still first')] }],
        [
          { type: 'paragraph', children: [t('second')] },
          {
            type: 'list',
            ordered: false,
            start: 1,
            items: [[{ type: 'paragraph', children: [t('inner a')] }], [{ type: 'paragraph', children: [t('inner b')] }]],
          },
        ],
      ],
    })
  })

  it('lets a list interrupt a paragraph, and ends a list at a line that is not its own', () => {
    const blocks = parseMarkdown('Steps:\n- open settings\n- rotate the key\n\nThen wait.')
    expect(blocks.map((b) => b.type)).toEqual(['paragraph', 'list', 'paragraph'])
    // A blank line between items keeps one list.
    const [loose] = parseMarkdown('- a\n\n- b')
    expect(loose.type === 'list' && loose.items.length).toBe(2)
    // Another kind of marker starts another list.
    expect(parseMarkdown('- a\n1. b').map((b) => b.type)).toEqual(['list', 'list'])
  })

  it('keeps fenced code as it is, with its language; an unclosed fence runs to the end', () => {
    expect(parseMarkdown('```sh\nvai keys rotate --id **k1**\n<b>x</b>\n```\nafter')).toEqual([
      { type: 'code', lang: 'sh', text: 'vai keys rotate --id **k1**\n<b>x</b>' },
      { type: 'paragraph', children: [t('after')] },
    ])
    expect(parseMarkdown('```\nstill streaming')).toEqual([{ type: 'code', text: 'still streaming' }])
  })

  it('reads quotes and rules', () => {
    expect(parseMarkdown('> quoted\n> on\n\n---')).toEqual([
      { type: 'quote', children: [{ type: 'paragraph', children: [t('quoted'), { type: 'break' }, t('on')] }] },
      { type: 'rule' },
    ])
  })

  it('does not nest without end: deep quotes turn into text', () => {
    const blocks = parseMarkdown('>'.repeat(40) + ' deep')
    let depth = 0
    let b = blocks[0]
    while (b.type === 'quote') {
      depth++
      b = b.children[0]
    }
    expect(depth).toBeLessThanOrEqual(8)
  })
})

describe('parseInline', () => {
  it('reads bold, italic and code', () => {
    expect(parseInline('a **bold** and *it* or _it_ with `co*de*`')).toEqual([
      t('a '),
      { type: 'strong', children: [t('bold')] },
      t(' and '),
      { type: 'em', children: [t('it')] },
      t(' or '),
      { type: 'em', children: [t('it')] },
      t(' with '),
      { type: 'code', text: 'co*de*' },
    ])
  })

  it('leaves snake_case, lone stars and unclosed marks as text', () => {
    expect(parseInline('api_docs and my_var_name')).toEqual([t('api_docs and my_var_name')])
    expect(parseInline('2 * 3 * 4')).toEqual([t('2 * 3 * 4')])
    expect(parseInline('**not closed and `not either')).toEqual([t('**not closed and `not either')])
  })

  it('reads [n] as a citation, and [text](url) as a link only for http(s)', () => {
    expect(parseInline('Rotate it [1][2].')).toEqual([t('Rotate it '), { type: 'cite', n: 1 }, { type: 'cite', n: 2 }, t('.')])
    expect(parseInline('[docs](https://example.com/a?b=1)')).toEqual([{ type: 'link', href: 'https://example.com/a?b=1', children: [t('docs')] }])
    expect(parseInline('[click](javascript:alert(1))')).toEqual([t('[click](javascript:alert(1))')])
    expect(parseInline('[click](javascript:alert)')).toEqual([t('click')])
    expect(parseInline('[x](data:text/html;base64,AAAA)')).toEqual([t('x')])
    expect(parseInline('see <https://example.com>')).toEqual([t('see '), { type: 'link', href: 'https://example.com', children: [t('https://example.com')] }])
    expect(parseInline('[not a link] and [1 ] too')).toEqual([t('[not a link] and [1 ] too')])
  })

  it('keeps HTML as text', () => {
    expect(parseInline('<script>alert(1)</script> <img src=x onerror=alert(1)>')).toEqual([t('<script>alert(1)</script> <img src=x onerror=alert(1)>')])
  })

  it('honours backslash escapes', () => {
    expect(parseInline('\\*not em\\* and \\[1\\]')).toEqual([t('*not em* and [1]')])
  })

  it('stays fast on text full of unclosed marks', () => {
    const nasty = '*a _b `c [d '.repeat(2000)
    const started = performance.now()
    parseMarkdown(nasty)
    parseMarkdown('['.repeat(20000) + ']')
    parseMarkdown('**a '.repeat(4000))
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe('looksLikeMarkdown', () => {
  it('tells Markdown from plain strings', () => {
    expect(looksLikeMarkdown('## Summary\nAll good')).toBe(true)
    expect(looksLikeMarkdown('Points:\n- one\n- two')).toBe(true)
    expect(looksLikeMarkdown('1. first\n2. second')).toBe(true)
    expect(looksLikeMarkdown('It is **important**.')).toBe(true)
    expect(looksLikeMarkdown('a plain sentence - with a dash')).toBe(false)
    expect(looksLikeMarkdown('3 results')).toBe(false)
  })
})
