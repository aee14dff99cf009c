import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import type { GraphView } from '../api/types'
import { useInputFields } from '../hooks/useInputFields'
import { fieldOf, isRecord } from '../state/definition'
import { useWorkflowStore } from '../state/workflowStore'
import { monoFont } from '../theme'
import ConfigValue from './ConfigValue'
import JsonTree from './JsonTree'
import KeyValueList from './KeyValueList'
import RunSummaryView from './RunSummaryView'
import Section from './Section'
import { childPointer } from './templateParts'

/** The whole workflow: what it is, what it takes, what it returns, and its last result. */
export default function WorkflowInspector({ graph }: { graph?: GraphView }) {
  const current = useWorkflowStore((s) => s.current)
  const fields = useInputFields()
  const definition = current?.definition
  const description = graph?.description ?? (isRecord(definition) && typeof definition.description === 'string' ? definition.description : undefined)
  const defaults = fieldOf(definition, 'defaults')
  const output = fieldOf(definition, 'output')

  return (
    <Box>
      <Typography component="h2" variant="h6" sx={{ lineHeight: 1.3 }}>
        {graph?.name ?? current?.label}
      </Typography>
      {current?.id && (
        <Typography variant="caption" sx={{ fontFamily: monoFont, color: 'text.secondary' }}>
          {current.id}
        </Typography>
      )}
      {description && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {description}
        </Typography>
      )}
      <Section title="Inputs">
        {fields.length > 0 ? (
          <KeyValueList
            rows={fields.map((f) => ({
              key: f.name,
              value: (
                <Typography variant="body2" component="span" sx={{ fontSize: 12 }}>
                  {f.type}
                  {f.required ? ' · required' : ''}
                  {f.default !== undefined ? ` · default ${JSON.stringify(f.default)}` : ''}
                </Typography>
              ),
              note: f.description,
            }))}
          />
        ) : (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            This workflow takes no inputs.
          </Typography>
        )}
      </Section>
      {isRecord(defaults) && Object.keys(defaults).length > 0 && (
        <Section title="Defaults">
          <JsonTree value={defaults} />
        </Section>
      )}
      {output !== undefined && (
        <Section title="Output mapping">
          {isRecord(output) ? (
            <KeyValueList
              rows={Object.entries(output).map(([key, value]) => ({ key, value: <ConfigValue value={value} pointer={childPointer('/output', key)} /> }))}
            />
          ) : (
            <ConfigValue value={output} pointer="/output" />
          )}
        </Section>
      )}
      <RunSummaryView />
    </Box>
  )
}
