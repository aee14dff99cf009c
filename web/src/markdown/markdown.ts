//! The small Markdown answers are written in, parsed into a tree that React renders as elements
//! (Markdown.tsx): paragraphs, `#`–`###` headings, `-` and `1.` lists (nested by indentation),
//! `>` quotes, fenced code, rules; **bold**, *italic*, `code`, links and `[n]` citations. Nothing
//! here is HTML: a `<script>` in the text stays text. Pure: no React, no DOM.

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'code'; text: string }
  /** Only `http(s)` targets become links; any other is dropped and its label kept as text. */
  | { type: 'link'; href: string; children: Inline[] }
  /** A citation marker `[n]`: the renderer links it to what it cites, when it knows. */
  | { type: 'cite'; n: number }
  /** A line break inside a paragraph: answers use single newlines as breaks. */
  | { type: 'break' }

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'quote'; children: Block[] }
  | { type: 'code'; lang?: string; text: string }
  | { type: 'rule' }

/** Lists and quotes nest at most this deep; deeper lines are read as text. */
const MAX_DEPTH = 8

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*$/
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/
const QUOTE = /^ {0,3}> ?(.*)$/

export function parseMarkdown(text: string): Block[] {
  return parseBlocks(text.replace(/\r\n?/g, '\n').split('\n'), 0)
}

/** Whether `text` holds Markdown blocks (a heading, a list, fenced code) worth rendering as such. */
export function looksLikeMarkdown(text: string): boolean {
  return /^ {0,3}(#{1,3}\s|[-*+]\s+\S|\d{1,3}[.)]\s+\S|```)/m.test(text) || /\*\*\S[^*]*\*\*/.test(text)
}

interface Item {
  indent: number
  ordered: boolean
  number: number
  /** Where the item's text starts: its continuation lines are indented at least this far. */
  contentIndent: number
  first: string
}

function itemOf(line: string): Item | undefined {
  const m = ITEM.exec(line)
  if (!m) return undefined
  // `- - -` is a rule, not a list.
  if (RULE.test(line)) return undefined
  const [, spaces, marker, rest = ''] = m
  const ordered = /\d/.test(marker[0])
  const gap = line.length - spaces.length - marker.length - rest.length
  return {
    indent: spaces.length,
    ordered,
    number: ordered ? Number.parseInt(marker, 10) : 1,
    contentIndent: spaces.length + marker.length + Math.min(Math.max(gap, 1), 4),
    first: rest,
  }
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length
}

const blank = (line: string) => line.trim() === ''

/** Whether `line` starts a block that ends a paragraph. */
function interrupts(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || itemOf(line) !== undefined
}

function parseBlocks(lines: string[], depth: number): Block[] {
  const blocks: Block[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    if (blank(line)) {
      i++
      continue
    }
    const fence = FENCE.exec(line)
    if (fence) {
      const mark = fence[1]
      const body: string[] = []
      i++
      // An unclosed fence (an answer still arriving) runs to the end.
      while (i < lines.length && !(lines[i].trim().startsWith(mark[0].repeat(mark.length)) && lines[i].trim().replace(/[`~]/g, '') === '')) {
        body.push(lines[i])
        i++
      }
      i++
      blocks.push({ type: 'code', ...(fence[2] ? { lang: fence[2] } : {}), text: body.join('\n') })
      continue
    }
    const heading = HEADING.exec(line)
    if (heading) {
      const level = Math.min(heading[1].length, 3) as 1 | 2 | 3
      blocks.push({ type: 'heading', level, children: parseInline((heading[2] ?? '').replace(/\s+#+$/, '')) })
      i++
      continue
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' })
      i++
      continue
    }
    if (depth < MAX_DEPTH && QUOTE.test(line)) {
      const inner: string[] = []
      while (i < lines.length && !blank(lines[i])) {
        const m = QUOTE.exec(lines[i])
        inner.push(m ? m[1] : lines[i])
        i++
      }
      blocks.push({ type: 'quote', children: parseBlocks(inner, depth + 1) })
      continue
    }
    const item = depth < MAX_DEPTH ? itemOf(line) : undefined
    if (item) {
      i = parseList(lines, i, item, depth, blocks)
      continue
    }
    const para: string[] = [line.trim()]
    i++
    while (i < lines.length && !blank(lines[i]) && !interrupts(lines[i])) {
      para.push(lines[i].trim())
      i++
    }
    blocks.push({ type: 'paragraph', children: parseInline(para.join('\n')) })
  }
  return blocks
}

/** Reads the list starting at `lines[start]` into `out`; returns the index after it. */
function parseList(lines: string[], start: number, first: Item, depth: number, out: Block[]): number {
  const items: Block[][] = []
  let i = start
  let item: Item | undefined = first
  while (item) {
    const body = [item.first]
    i++
    for (;;) {
      if (i >= lines.length) break
      const line = lines[i]
      if (blank(line)) {
        // A blank line ends the item unless what follows is indented under it.
        let j = i
        while (j < lines.length && blank(lines[j])) j++
        if (j < lines.length && indentOf(lines[j]) >= item.contentIndent) {
          for (; i < j; i++) body.push('')
          continue
        }
        break
      }
      if (indentOf(line) >= item.contentIndent) {
        body.push(line.slice(item.contentIndent))
        i++
        continue
      }
      if (itemOf(line) || interrupts(line)) break
      // A lazy continuation of the item's text.
      body.push(line.trim())
      i++
    }
    items.push(parseBlocks(body, depth + 1))
    // The next item of the same list, past blank lines between items.
    let j = i
    while (j < lines.length && blank(lines[j])) j++
    const next = j < lines.length ? itemOf(lines[j]) : undefined
    if (next && next.ordered === first.ordered && next.indent < first.contentIndent) {
      i = j
      item = next
    } else {
      item = undefined
    }
  }
  out.push({ type: 'list', ordered: first.ordered, start: first.number, items })
  return i
}

const PUNCTUATION = /[!-/:-@[-`{-~]/
const WORD = /[\p{L}\p{N}]/u
const SAFE_URL = /^https?:\/\/[^\s<>"]+$/i

/** The inline elements of `text` (a paragraph, a heading, a list item's line). */
export function parseInline(text: string): Inline[] {
  return new InlineParser(text).parse(0, text.length, 0)
}

/**
 * One text's inline parse. Where a closing mark was looked for from some place and not found,
 * openers of the same kind further on do not look again, which keeps a text of many unclosed
 * marks linear.
 */
class InlineParser {
  /** Kind of mark and end of the range → the earliest place a search for its closer failed from. */
  private readonly missing = new Map<string, number>()

  /** The last `]` looked up, and where the search for it started. */
  private bracket?: { from: number; at: number }

  private known(key: string, from: number): boolean {
    const failed = this.missing.get(key)
    return failed !== undefined && failed <= from
  }

  private fail(key: string, from: number) {
    this.missing.set(key, Math.min(from, this.missing.get(key) ?? from))
  }

  constructor(private readonly text: string) {}

  parse(from: number, to: number, depth: number): Inline[] {
    const { text } = this
    const out: Inline[] = []
    let buffer = ''
    const flush = () => {
      if (buffer) out.push({ type: 'text', text: buffer })
      buffer = ''
    }
    let i = from
    while (i < to) {
      const c = text[i]
      if (c === '\\' && i + 1 < to && PUNCTUATION.test(text[i + 1])) {
        buffer += text[i + 1]
        i += 2
        continue
      }
      if (c === '\n') {
        buffer = buffer.trimEnd()
        flush()
        out.push({ type: 'break' })
        i++
        while (i < to && text[i] === ' ') i++
        continue
      }
      if (c === '`') {
        let run = 1
        while (text[i + run] === '`') run++
        const close = this.closingTicks(i + run, to, run)
        if (close < 0) {
          buffer += text.slice(i, i + run)
          i += run
          continue
        }
        flush()
        const code = text.slice(i + run, close).replace(/\n/g, ' ')
        out.push({ type: 'code', text: code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code })
        i = close + run
        continue
      }
      if ((c === '*' || c === '_') && depth < MAX_DEPTH) {
        const found = this.emphasis(i, to, c)
        if (found) {
          flush()
          const children = this.parse(found.inner, found.close, depth + 1)
          out.push(found.strong ? { type: 'strong', children } : { type: 'em', children })
          i = found.end
          continue
        }
        // An unmatched run is text, whole (so `**` is not re-read as two `*`).
        let run = 1
        while (text[i + run] === c) run++
        buffer += text.slice(i, i + run)
        i += run
        continue
      }
      if (c === '[') {
        const cite = /^\[(\d{1,3})\](?!\()/.exec(text.slice(i, Math.min(to, i + 6)))
        if (cite && i + cite[0].length <= to) {
          flush()
          out.push({ type: 'cite', n: Number(cite[1]) })
          i += cite[0].length
          continue
        }
        const link = depth < MAX_DEPTH ? this.link(i, to) : undefined
        if (link) {
          flush()
          const children = this.parse(i + 1, link.labelEnd, depth + 1)
          if (SAFE_URL.test(link.href)) out.push({ type: 'link', href: link.href, children })
          else out.push(...children)
          i = link.end
          continue
        }
      }
      if (c === '<') {
        const auto = /^<(https?:\/\/[^\s<>"]+)>/i.exec(text.slice(i, to))
        if (auto) {
          flush()
          out.push({ type: 'link', href: auto[1], children: [{ type: 'text', text: auto[1] }] })
          i += auto[0].length
          continue
        }
      }
      buffer += c
      i++
    }
    flush()
    return out
  }

  /** Where a run of exactly `run` backticks starts in [from, to), or -1. */
  private closingTicks(from: number, to: number, run: number): number {
    const key = `\`${run}@${to}`
    if (this.known(key, from)) return -1
    for (let j = from; j < to; j++) {
      if (this.text[j] !== '`') continue
      let k = j
      while (k < to && this.text[k] === '`') k++
      if (k - j === run) return j
      j = k
    }
    this.fail(key, from)
    return -1
  }

  /** `**strong**` / `__strong__` or `*em*` / `_em_` opening at `i`, when it closes before `to`. */
  private emphasis(i: number, to: number, c: string) {
    const { text } = this
    const strong = text[i + 1] === c && text[i + 2] !== c
    const width = strong ? 2 : 1
    if (!strong && text[i + 1] === c) return undefined
    const inner = i + width
    // Opens only before text, and `_` only at the start of a word (not in snake_case).
    if (inner >= to || /\s/.test(text[inner])) return undefined
    if (c === '_' && i > 0 && WORD.test(text[i - 1])) return undefined
    const key = `${c}${width}@${to}`
    if (this.known(key, inner)) return undefined
    for (let j = inner + 1; j < to; j++) {
      if (text[j] === '`') {
        // Marks inside a code span do not close anything.
        let run = 1
        while (text[j + run] === '`') run++
        const close = this.closingTicks(j + run, to, run)
        if (close >= 0) j = close + run - 1
        continue
      }
      if (text[j] !== c) continue
      let run = 1
      while (text[j + run] === c) run++
      const fits = strong ? run >= 2 : run === 1
      const closes = fits && !/\s/.test(text[j - 1]) && !(c === '_' && j + run < to && WORD.test(text[j + run]))
      if (closes) return { strong, inner, close: j, end: j + width }
      j += run - 1
    }
    this.fail(key, inner)
    return undefined
  }

  /** `[label](href)` opening at `i`: where its label ends and the link ends. */
  private link(i: number, to: number) {
    const { text } = this
    const key = `[@${to}`
    if (this.known(key, i)) return undefined
    // Many `[` before one `]` look it up once.
    if (this.bracket === undefined || this.bracket.from > i + 1 || this.bracket.at < i + 1) this.bracket = { from: i + 1, at: text.indexOf(']', i + 1) }
    const labelEnd = this.bracket.at
    if (labelEnd < 0 || labelEnd >= to) {
      this.fail(key, i)
      return undefined
    }
    const target = /^\(([^\s()]*)(?:\s+"[^"]*")?\)/.exec(text.slice(labelEnd + 1, to))
    if (!target || text.slice(i + 1, labelEnd).includes('\n')) return undefined
    return { labelEnd, href: target[1], end: labelEnd + 1 + target[0].length }
  }
}
