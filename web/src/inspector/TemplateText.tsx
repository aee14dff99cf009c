import Box from '@mui/material/Box'
import ButtonBase from '@mui/material/ButtonBase'
import { useMemo } from 'react'
import { useCanvasStore } from '../canvas/useCanvasStore'
import { useReferences } from '../hooks/useReferences'
import { monoFont } from '../theme'
import { splitTemplate } from './templateParts'

const NONE: never[] = []

/**
 * A configured string with its `{{ … }}` templates highlighted and references clickable, as the
 * engine's reference index finds them at `pointer` (the string's JSON pointer in the document).
 */
export default function TemplateText({ value, pointer }: { value: string; pointer?: string }) {
  const index = useReferences()
  const focusNode = useCanvasStore((s) => s.focus)
  const sites = (pointer && index?.get(pointer)) || NONE
  const parts = useMemo(() => splitTemplate(value, sites), [value, sites])
  return (
    <Box component="span" sx={{ fontFamily: monoFont, fontSize: 12, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {parts.map((part, i) => {
        if (part.kind === 'text') return <span key={i}>{part.text}</span>
        if (part.kind === 'expr')
          return (
            <Box component="span" key={i} sx={{ color: 'secondary.main' }}>
              {part.text}
            </Box>
          )
        return (
          <ButtonBase
            key={i}
            onClick={() => focusNode(part.target)}
            title={part.target === '__inputs' ? 'Show the workflow inputs' : `Select step ${part.target}`}
            sx={{
              font: 'inherit',
              color: 'primary.main',
              bgcolor: 'action.hover',
              borderRadius: 0.5,
              px: 0.25,
              verticalAlign: 'baseline',
              textDecoration: 'underline dotted',
              '&:hover': { textDecoration: 'underline' },
            }}
          >
            {part.text}
          </ButtonBase>
        )
      })}
    </Box>
  )
}
