import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import type { Step, StepNode } from '../api/types'
import { useCatalogStore } from '../state/catalogStore'
import { isRecord, stepOf } from '../state/definition'
import { useWorkflowStore } from '../state/workflowStore'
import { monoFont } from '../theme'
import ConfigValue from './ConfigValue'
import ExplainNote from './ExplainNote'
import KeyValueList from './KeyValueList'
import RestartButton from '../history/RestartButton'
import StepDiffView from '../history/StepDiffView'
import RunStepButton from './RunStepButton'
import Section from './Section'
import { childPointer } from './templateParts'
import StepRunDetails from './StepRunDetails'

const EXTRA_FIELDS: (keyof Step & string)[] = ['condition', 'forEach', 'dependsOn', 'continueOnError', 'retry', 'timeoutMs', 'forEachConcurrency', 'compensate']

export default function StepInspector({ node }: { node: StepNode }) {
  const tool = useCatalogStore((s) => s.tools[node.tool])
  const definition = useWorkflowStore((s) => s.current?.definition)
  const [showHelp, setShowHelp] = useState(false)
  const step = stepOf(definition, node.id)
  // The step's JSON pointer, under which the reference index names its strings.
  const index = isRecord(definition) && Array.isArray(definition.steps) ? definition.steps.findIndex((s) => isRecord(s) && s.id === node.id) : -1
  const at = (...keys: string[]) => (index < 0 ? undefined : keys.reduce(childPointer, `/steps/${index}`))
  const inputs = Object.entries(step?.inputs ?? {})
  const extras = EXTRA_FIELDS.flatMap((k) => (step?.[k] === undefined ? [] : [{ key: k, value: <ConfigValue value={step[k]} pointer={at(k)} /> }]))

  return (
    <Box>
      <Typography component="h2" variant="h6" sx={{ lineHeight: 1.3 }}>
        {node.name}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5, flexWrap: 'wrap' }}>
        <Chip size="small" label={tool ? `${tool.label} · ${node.tool}` : node.tool} sx={{ bgcolor: node.color, color: '#111', fontWeight: 600 }} />
        <Typography variant="caption" sx={{ fontFamily: monoFont, color: 'text.secondary' }}>
          id: {node.id}
        </Typography>
      </Box>
      <StepDiffView stepId={node.id} />
      {node.description && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {node.description}
        </Typography>
      )}
      {tool && (
        <Box sx={{ mt: 1 }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {tool.description}
          </Typography>
          {tool.help && (
            <>
              <Button size="small" onClick={() => setShowHelp(!showHelp)} aria-expanded={showHelp} sx={{ px: 0 }}>
                {showHelp ? 'Hide help' : 'Tool help'}
              </Button>
              {showHelp && (
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', color: 'text.secondary', fontSize: 12 }}>
                  {tool.help}
                </Typography>
              )}
            </>
          )}
        </Box>
      )}
      <ExplainNote tool={node.tool} />
      <Section title="Configured inputs">
        {inputs.length > 0 ? (
          <KeyValueList rows={inputs.map(([key, value]) => ({ key, value: <ConfigValue value={value} pointer={at('inputs', key)} /> }))} />
        ) : (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            No inputs configured.
          </Typography>
        )}
      </Section>
      {extras.length > 0 && (
        <Section title="Step settings">
          <KeyValueList rows={extras} />
        </Section>
      )}
      <Box sx={{ mt: 2, display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <RunStepButton stepId={node.id} />
        <RestartButton stepId={node.id} />
      </Box>
      <StepRunDetails stepId={node.id} />
    </Box>
  )
}
