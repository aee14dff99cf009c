//! An output's prose (prose.ts) rendered as Markdown, one section per field, each `[n]` a link
//! that shows the source and passage it cites. The raw JSON stays below it (OutputView).
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import Typography from '@mui/material/Typography'
import { useMemo, useState } from 'react'
import MethodLabel from '../chat/MethodLabel'
import Markdown from '../markdown/Markdown'
import { methodOf, proseOf, type Prose } from './prose'
import Section from './Section'

/** Prose longer than this is drawn cut, with a button for the rest (a whole document as `text`). */
const LONG = 64 * 1024

/** Section titles for the usual fields; others are titled by their name. */
const TITLE: Record<string, string> = { '': 'Text', text: 'Text', answer: 'Answer', summary: 'Summary', report: 'Report' }

export default function ProseView({ value }: { value: unknown }) {
  const prose = useMemo(() => proseOf(value), [value])
  const method = methodOf(value)
  return prose.map((p, i) => <ProseSection key={p.key} prose={p} method={i === 0 ? method : undefined} />)
}

function ProseSection({ prose, method }: { prose: Prose; method?: ReturnType<typeof methodOf> }) {
  const [shown, setShown] = useState<number>()
  const [whole, setWhole] = useState(false)
  const cut = !whole && prose.text.length > LONG
  const citation = shown === undefined ? undefined : prose.cited(shown)
  const cite = (n: number) => {
    const entry = prose.cited(n)
    if (!entry) return undefined
    return (
      <Link
        component="button"
        type="button"
        variant="body2"
        title={entry.source}
        aria-pressed={shown === n}
        aria-label={`Citation ${n}${entry.source ? `: ${entry.source}` : ''}`}
        onClick={() => setShown(shown === n ? undefined : n)}
        sx={{ verticalAlign: 'baseline', fontWeight: shown === n ? 700 : undefined }}
      >
        [{n}]
      </Link>
    )
  }
  return (
    <Section title={TITLE[prose.key] ?? prose.key} actions={<MethodLabel method={method} />}>
      <Markdown
        text={cut ? `${prose.text.slice(0, LONG)}…` : prose.text}
        cite={cite}
        data-testid="markdown-output"
        data-field={prose.key}
        sx={{ typography: 'body2' }}
      />
      {cut && (
        <Button size="small" onClick={() => setWhole(true)} sx={{ px: 0 }}>
          Show all {Math.round(prose.text.length / 1024)} KB
        </Button>
      )}
      {citation && (
        <Box data-testid="markdown-citation" sx={{ mt: 1, pl: 1.25, borderLeft: 3, borderColor: 'primary.main' }}>
          <Typography variant="caption" component="p" sx={{ fontWeight: 600 }}>
            [{citation.n}] {citation.source ?? 'Source'}
          </Typography>
          {citation.passage && (
            <Typography variant="body2" component="blockquote" sx={{ m: 0, color: 'text.secondary', whiteSpace: 'pre-wrap', maxHeight: 200, overflow: 'auto' }}>
              {citation.passage}
            </Typography>
          )}
        </Box>
      )}
    </Section>
  )
}
