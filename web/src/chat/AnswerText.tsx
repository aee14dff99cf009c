//! An answer's text as it arrives, its `[n]` citations turned into links to the sources they name.
import Link from '@mui/material/Link'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'
import type { ChatSource } from '../api/types'

const CITATION = /\[(\d{1,3})\]/g

export default function AnswerText({ text, sources, onCite }: { text: string; sources: ChatSource[]; onCite(source: ChatSource): void }) {
  const parts: ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(CITATION)) {
    const source = sources.find((s) => s.index === Number(match[1]))
    if (!source) continue
    parts.push(text.slice(last, match.index))
    parts.push(
      <Link
        key={match.index}
        component="button"
        type="button"
        variant="body2"
        title={source.title}
        onClick={() => onCite(source)}
        sx={{ verticalAlign: 'baseline' }}
      >
        [{source.index}]
      </Link>,
    )
    last = match.index + match[0].length
  }
  parts.push(text.slice(last))
  return (
    <Typography component="div" variant="body2" data-testid="chat-answer" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {parts}
    </Typography>
  )
}
