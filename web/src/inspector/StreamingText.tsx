//! The text a running step has written so far (a `generate` answer arriving), growing as it
//! comes: a live region, kept scrolled to its end. Once the step completes, its output's prose
//! takes its place, rendered (ProseView).
import Box from '@mui/material/Box'
import { useLayoutEffect, useRef } from 'react'
import Section from './Section'

export default function StreamingText({ text }: { text: string }) {
  const box = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const el = box.current
    if (el) el.scrollTop = el.scrollHeight
  }, [text])
  return (
    <Section title="Writing">
      <Box
        ref={box}
        role="log"
        aria-live="polite"
        aria-label="Text so far"
        data-testid="step-streaming-text"
        sx={{
          typography: 'body2',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          maxHeight: 320,
          overflow: 'auto',
          // A caret where the text goes on, drawn by CSS so it is not part of the text.
          '&::after': { content: '"▍"', color: 'text.disabled' },
        }}
      >
        {text}
      </Box>
    </Section>
  )
}
