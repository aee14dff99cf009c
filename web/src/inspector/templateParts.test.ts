import { describe, expect, it } from 'vitest'
import type { ReferenceSite } from '../api/types'
import { childPointer, splitTemplate, type TemplatePart } from './templateParts'

/**
 * A site as the server's reference index reports it: `written` is the path text at its first
 * occurrence in `value` from `from`, inside the template that encloses it.
 */
function site(value: string, written: string, target: string | undefined, from = 0): ReferenceSite {
  const start = value.indexOf(written, from)
  const templateStart = value.lastIndexOf('{{', start)
  const templateEnd = value.indexOf('}}', start) + 2
  const root = written.startsWith('steps.') ? written.split('.')[1] : written.split(/[.[]/)[0]
  const rootStart = value.indexOf(root, start)
  return {
    pointer: '/steps/0/inputs/text',
    stepId: 'answer',
    field: 'inputs.text',
    kind: 'template',
    path: written.replace(/^steps\./, ''),
    root,
    ...(target === undefined ? {} : { target }),
    start,
    end: start + written.length,
    rootStart,
    rootEnd: rootStart + root.length,
    templateStart,
    templateEnd,
    whole: templateStart === 0 && templateEnd === value.length,
  }
}

const refs = (parts: TemplatePart[]) => parts.flatMap((p) => (p.kind === 'ref' ? [[p.text, p.target]] : []))

describe('splitTemplate from the reference index', () => {
  it('leaves text without sites alone', () => {
    expect(splitTemplate('hello world', [])).toEqual([{ kind: 'text', text: 'hello world' }])
  })

  it('a whole-value step reference: braces as syntax, the path as a link', () => {
    const value = '{{ search_2.output.results }}'
    expect(splitTemplate(value, [site(value, 'search_2.output.results', 'search_2')])).toEqual([
      { kind: 'expr', text: '{{ ' },
      { kind: 'ref', text: 'search_2.output.results', target: 'search_2' },
      { kind: 'expr', text: ' }}' },
    ])
  })

  it('points input references at the inputs node, with text around', () => {
    const value = 'Q: {{ inputs.query }}!'
    expect(splitTemplate(value, [site(value, 'inputs.query', '__inputs')])).toEqual([
      { kind: 'text', text: 'Q: ' },
      { kind: 'expr', text: '{{ ' },
      { kind: 'ref', text: 'inputs.query', target: '__inputs' },
      { kind: 'expr', text: ' }}' },
      { kind: 'text', text: '!' },
    ])
  })

  it('several references in one expression, with indexes, in order whatever the site order', () => {
    const value = '{{ check.output.conditionResult ? search_1.output.results[0].text : merge.output.results.length }}'
    const sites = [
      site(value, 'merge.output.results.length', 'merge'),
      site(value, 'check.output.conditionResult', 'check'),
      site(value, 'search_1.output.results[0].text', 'search_1'),
    ]
    expect(refs(splitTemplate(value, sites))).toEqual([
      ['check.output.conditionResult', 'check'],
      ['search_1.output.results[0].text', 'search_1'],
      ['merge.output.results.length', 'merge'],
    ])
  })

  it('links the written text of a steps. prefix to the step', () => {
    const value = '{{ steps.merge.output }}'
    expect(refs(splitTemplate(value, [site(value, 'steps.merge.output', 'merge')]))).toEqual([['steps.merge.output', 'merge']])
  })

  it('defaults, locals and unknown names have no target: syntax, not links', () => {
    const value = '{{ defaults.limit }} {{ item.merge }} {{ unknown.output }}'
    const sites = [site(value, 'defaults.limit', undefined), site(value, 'item.merge', undefined), site(value, 'unknown.output', undefined)]
    const parts = splitTemplate(value, sites)
    expect(refs(parts)).toEqual([])
    expect(parts).toEqual([
      { kind: 'expr', text: '{{ defaults.limit }}' },
      { kind: 'text', text: ' ' },
      { kind: 'expr', text: '{{ item.merge }}' },
      { kind: 'text', text: ' ' },
      { kind: 'expr', text: '{{ unknown.output }}' },
    ])
  })

  it('several templates; a string that did not parse has no sites and stays text', () => {
    const value = '{{ search_1.output }} and {{ search_2.output }}'
    expect(refs(splitTemplate(value, [site(value, 'search_1.output', 'search_1'), site(value, 'search_2.output', 'search_2')]))).toEqual([
      ['search_1.output', 'search_1'],
      ['search_2.output', 'search_2'],
    ])
    expect(splitTemplate('a {{ merge', [])).toEqual([{ kind: 'text', text: 'a {{ merge' }])
  })

  it('an id site (dependsOn, then/else) links the whole string', () => {
    const id: ReferenceSite = {
      pointer: '/steps/1/dependsOn/0',
      stepId: 'b',
      field: 'dependsOn[0]',
      kind: 'id',
      path: 'search',
      root: 'search',
      target: 'search',
      start: 0,
      end: 6,
      rootStart: 0,
      rootEnd: 6,
      whole: true,
    }
    expect(splitTemplate('search', [id])).toEqual([{ kind: 'ref', text: 'search', target: 'search' }])
  })

  it('ignores sites whose offsets do not fit the string', () => {
    const value = '{{ a.output }}'
    expect(splitTemplate(value, [{ ...site(value, 'a.output', 'a'), end: 99 }])).toEqual([{ kind: 'expr', text: value }])
  })

  it('escapes pointer segments', () => {
    expect(childPointer('/output', 'a/b~c')).toBe('/output/a~1b~0c')
    expect(childPointer('/steps', 2)).toBe('/steps/2')
  })
})
