//! The passages a grounded answer quotes, under it: each with its `[n]` and its source's title,
//! the text as the answer quotes it. The one a citation in the answer points to is highlighted
//! and scrolled into view; a passage's title opens its source.
import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import { useEffect, useRef } from 'react'
import Markdown from '../markdown/Markdown'
import type { Passage } from './passages'

export default function PassageList({ passages, highlighted, onOpen }: { passages: Passage[]; highlighted?: string; onOpen(passage: Passage): void }) {
  const list = useRef<HTMLUListElement>(null)
  useEffect(() => {
    if (highlighted === undefined) return
    const el = list.current?.querySelector<HTMLElement>(`[data-passage="${highlighted}"]`)
    el?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' })
  }, [highlighted])
  if (passages.length === 0) return null
  return (
    <Box component="ul" ref={list} aria-label="Quoted passages" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      {passages.map((p) => {
        const on = p.key === highlighted
        return (
          <Box
            component="li"
            key={p.key}
            data-testid="chat-passage"
            data-passage={p.key}
            data-highlighted={on ? 'true' : undefined}
            aria-current={on ? 'true' : undefined}
            sx={{
              borderLeft: 3,
              borderColor: on ? 'primary.main' : 'divider',
              bgcolor: on ? 'action.selected' : 'transparent',
              borderRadius: 0.5,
              px: 1,
              py: 0.5,
              transition: 'background-color 200ms, border-color 200ms',
            }}
          >
            <Link
              component="button"
              type="button"
              variant="caption"
              underline="hover"
              title={`Open ${p.title}`}
              onClick={() => onOpen(p)}
              sx={{ color: 'text.secondary', fontWeight: 600, textAlign: 'left' }}
            >
              [{p.n}] {p.title}
            </Link>
            <Markdown text={p.text} data-testid="chat-passage-text" sx={{ typography: 'body2', fontStyle: 'italic' }} />
          </Box>
        )
      })}
    </Box>
  )
}
