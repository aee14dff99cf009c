//! The block structure of a sticky note's Markdown: paragraphs (with line breaks) and lists.
export type Block = { kind: 'p'; lines: string[] } | { kind: 'ul' | 'ol'; items: string[] }

const BULLET = /^\s*[-*+]\s+(.*)$/
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/

/** Splits text into paragraphs and lists. */
export function blocks(text: string): Block[] {
  const out: Block[] = []
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const bullet = BULLET.exec(line)
    const numbered = bullet ? null : NUMBERED.exec(line)
    const last = out.at(-1)
    if (bullet || numbered) {
      const kind = bullet ? 'ul' : 'ol'
      const item = (bullet ?? numbered)![1]
      if (last && last.kind === kind) last.items.push(item)
      else out.push({ kind, items: [item] })
    } else if (line.trim() === '') {
      if (last && !(last.kind === 'p' && last.lines.length === 0)) out.push({ kind: 'p', lines: [] })
    } else if (last && last.kind === 'p') last.lines.push(line)
    else out.push({ kind: 'p', lines: [line] })
  }
  return out.filter((b) => b.kind !== 'p' || b.lines.length > 0)
}
