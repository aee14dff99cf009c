import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useCatalogStore } from '../state/catalogStore'
import { monoFont } from '../theme'
import Section from './Section'

/**
 * "What is happening here": the workshop note for the step's kind of tool, from the same source
 * as `vai explain <topic>` (the tool catalog's `explain`), in the read-only and the edit
 * inspector alike. Nothing for a tool without one.
 */
export default function ExplainNote({ tool }: { tool: string }) {
  const explain = useCatalogStore((s) => s.tools[tool]?.explain)
  if (!explain) return null
  return (
    <Section title="What is happening here">
      <Typography variant="body2">{explain.text}</Typography>
      <Typography component="p" variant="caption" sx={{ mt: 0.5, color: 'text.secondary' }}>
        More on {explain.title}:{' '}
        <Box component="code" sx={{ fontFamily: monoFont }}>
          vai explain {explain.topic}
        </Box>
      </Typography>
    </Section>
  )
}
