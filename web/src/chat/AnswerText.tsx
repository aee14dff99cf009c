//! An answer's text as it arrives, rendered as Markdown (markdown/Markdown.tsx), its `[n]`
//! citations turned into links to the sources they name.
import Link from '@mui/material/Link'
import { useCallback } from 'react'
import type { ChatSource } from '../api/types'
import Markdown from '../markdown/Markdown'

/**
 * `onCite(source, nth)`: citation `[n]` of `source` was chosen, the `nth` (from 0) time the
 * answer cites it.
 */
export default function AnswerText({ text, sources, onCite }: { text: string; sources: ChatSource[]; onCite(source: ChatSource, nth: number): void }) {
  const cite = useCallback(
    (n: number, nth: number) => {
      const source = sources.find((s) => s.index === n)
      if (!source) return undefined
      return (
        <Link component="button" type="button" variant="body2" title={source.title} onClick={() => onCite(source, nth)} sx={{ verticalAlign: 'baseline' }}>
          [{source.index}]
        </Link>
      )
    },
    [sources, onCite],
  )
  return <Markdown text={text} cite={cite} data-testid="chat-answer" sx={{ typography: 'body2' }} />
}
