//! A tiny, safe Markdown renderer for sticky notes: paragraphs, line breaks, `-`/`*`/`1.` lists,
//! **bold**, *emphasis* and `code`. It builds React elements from text, so nothing in a note is
//! ever interpreted as HTML.
import type { ReactNode } from 'react'
import { blocks } from './markdownBlocks'

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|__[^_]+__|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g

/** Inline emphasis, strong and code as elements; everything else as text. */
function inline(text: string): ReactNode[] {
  return text.split(INLINE).map((part, i) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 2) return <code key={i}>{part.slice(1, -1)}</code>
    if ((part.startsWith('**') && part.endsWith('**')) || (part.startsWith('__') && part.endsWith('__')))
      return part.length > 4 ? <strong key={i}>{part.slice(2, -2)}</strong> : part
    if ((part.startsWith('*') && part.endsWith('*')) || (part.startsWith('_') && part.endsWith('_')))
      return part.length > 2 ? <em key={i}>{part.slice(1, -1)}</em> : part
    return part
  })
}

export default function Markdown({ text }: { text: string }) {
  return (
    <>
      {blocks(text).map((block, i) => {
        if (block.kind === 'p') {
          return (
            <p key={i}>
              {block.lines.map((line, j) => (
                <span key={j}>
                  {j > 0 && <br />}
                  {inline(line)}
                </span>
              ))}
            </p>
          )
        }
        const items = block.items.map((item, j) => <li key={j}>{inline(item)}</li>)
        return block.kind === 'ul' ? <ul key={i}>{items}</ul> : <ol key={i}>{items}</ol>
      })}
    </>
  )
}
