import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Typography from '@mui/material/Typography'
import type { Diagnostic, Step, ToolView } from '../../api/types'
import CommitField from './CommitField'
import FieldMessages from './FieldMessages'
import { withKey } from './objects'
import { identifierError } from './stepSettings'
import TextInput from './TextInput'
import type { StepFormProps, StepUpdate } from './types'

interface Props {
  /** The parts of the step this section shows. */
  step: Pick<Step, 'id' | 'tool' | 'name' | 'description'>
  tool?: ToolView
  at(field: string): Diagnostic[]
  update: StepUpdate
  onRename: StepFormProps['onRename']
}

/** Who the step is: its id (renamed through the editor, so references follow), tool, name, description. */
export default function StepHeader({ step, tool, at, update, onRename }: Props) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Chip
          size="small"
          label={tool ? `${tool.label} · ${step.tool}` : step.tool}
          sx={tool ? { bgcolor: tool.color, color: '#111', fontWeight: 600 } : undefined}
        />
        {tool && (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {tool.description}
          </Typography>
        )}
      </Box>
      {at('tool').length > 0 && (
        <Typography variant="caption" component="div">
          <FieldMessages diagnostics={at('tool')} />
        </Typography>
      )}
      <CommitField
        label="Id"
        field="id"
        value={step.id}
        required
        description="Other steps read this step's output as {{ <id>.output }}; renaming rewrites them"
        diagnostics={at('id')}
        validate={(text) => identifierError(text, 'step id')}
        onCommit={(text) => onRename(step.id, text)}
      />
      <TextInput
        label="Name"
        field="name"
        value={step.name}
        placeholder={step.id}
        diagnostics={at('name')}
        onChange={(v) => update((current) => withKey(current, 'name', v), 'name')}
      />
      <TextInput
        label="Description"
        field="description"
        value={step.description}
        multiline
        diagnostics={at('description')}
        onChange={(v) => update((current) => withKey(current, 'description', v), 'description')}
      />
    </Box>
  )
}
