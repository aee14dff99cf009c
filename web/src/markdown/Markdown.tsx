//! Markdown text (markdown.ts) as React elements: never HTML, so what the text says about tags
//! is shown as text. Links open in a new tab without a referrer; `[n]` citations are whatever
//! `cite` makes of them (plain `[n]` without it).
import Box, { type BoxProps } from '@mui/material/Box'
import Link from '@mui/material/Link'
import type { SxProps, Theme } from '@mui/material/styles'
import { Fragment, memo, useMemo, type ReactNode } from 'react'
import { monoFont } from '../theme'
import { parseMarkdown, type Block, type Inline } from './markdown'

/**
 * Draws citation `[n]`, the `nth` time (from 0) the text cites `n`; `undefined` keeps it as the
 * text `[n]`.
 */
export type Cite = (n: number, nth: number) => ReactNode | undefined

export interface MarkdownProps extends Omit<BoxProps, 'children'> {
  text: string
  cite?: Cite
}

function Markdown({ text, cite, sx, ...rest }: MarkdownProps) {
  const blocks = useMemo(() => parseMarkdown(text), [text])
  const seen = new Map<number, number>()
  const draw: Draw = {
    cite: (n, key) => {
      const nth = seen.get(n) ?? 0
      seen.set(n, nth + 1)
      const drawn = cite?.(n, nth)
      return drawn === undefined ? `[${n}]` : <Fragment key={key}>{drawn}</Fragment>
    },
  }
  return (
    <Box {...rest} sx={[rootSx, ...(Array.isArray(sx) ? sx : [sx])]}>
      {blocks.map((b, i) => block(b, `${i}`, draw))}
    </Box>
  )
}

export default memo(Markdown)

interface Draw {
  cite(n: number, key: string): ReactNode
}

const rootSx: SxProps<Theme> = {
  overflowWrap: 'anywhere',
  '& > :first-child': { mt: 0 },
  '& > :last-child': { mb: 0 },
}

const HEADING = { 1: { component: 'h4', fontSize: '1.2em' }, 2: { component: 'h5', fontSize: '1.1em' }, 3: { component: 'h6', fontSize: '1em' } } as const

function block(b: Block, key: string, draw: Draw): ReactNode {
  switch (b.type) {
    case 'heading':
      return (
        <Box key={key} component={HEADING[b.level].component} sx={{ fontSize: HEADING[b.level].fontSize, fontWeight: 700, lineHeight: 1.3, mt: 1.5, mb: 0.5 }}>
          {inlines(b.children, key, draw)}
        </Box>
      )
    case 'paragraph':
      return (
        <Box key={key} component="p" sx={{ my: 0.75 }}>
          {inlines(b.children, key, draw)}
        </Box>
      )
    case 'list':
      return (
        <Box key={key} component={b.ordered ? 'ol' : 'ul'} start={b.ordered && b.start !== 1 ? b.start : undefined} sx={{ my: 0.75, pl: 2.5 }}>
          {b.items.map((item, i) => (
            <Box key={i} component="li" sx={{ my: 0.25 }}>
              {item.length === 1 && item[0].type === 'paragraph'
                ? inlines(item[0].children, `${key}.${i}`, draw)
                : item.map((c, j) => block(c, `${key}.${i}.${j}`, draw))}
            </Box>
          ))}
        </Box>
      )
    case 'quote':
      return (
        <Box key={key} component="blockquote" sx={{ my: 0.75, mx: 0, pl: 1.25, borderLeft: 3, borderColor: 'divider', color: 'text.secondary' }}>
          {b.children.map((c, i) => block(c, `${key}.${i}`, draw))}
        </Box>
      )
    case 'code':
      return (
        <Box
          key={key}
          component="pre"
          data-lang={b.lang}
          sx={{ my: 0.75, p: 1, borderRadius: 1, bgcolor: 'action.hover', fontFamily: monoFont, fontSize: 12, overflowX: 'auto', whiteSpace: 'pre' }}
        >
          <code>{b.text}</code>
        </Box>
      )
    case 'rule':
      return <Box key={key} component="hr" sx={{ my: 1, border: 0, borderTop: 1, borderColor: 'divider' }} />
  }
}

function inlines(list: Inline[], key: string, draw: Draw): ReactNode[] {
  return list.map((node, i) => inline(node, `${key}:${i}`, draw))
}

function inline(node: Inline, key: string, draw: Draw): ReactNode {
  switch (node.type) {
    case 'text':
      return node.text
    case 'strong':
      return <strong key={key}>{inlines(node.children, key, draw)}</strong>
    case 'em':
      return <em key={key}>{inlines(node.children, key, draw)}</em>
    case 'code':
      return (
        <Box key={key} component="code" sx={{ fontFamily: monoFont, fontSize: '0.92em', px: 0.4, borderRadius: 0.5, bgcolor: 'action.hover' }}>
          {node.text}
        </Box>
      )
    case 'link':
      return (
        <Link key={key} href={node.href} target="_blank" rel="noreferrer">
          {inlines(node.children, key, draw)}
        </Link>
      )
    case 'cite':
      return draw.cite(node.n, key)
    case 'break':
      return <br key={key} />
  }
}
