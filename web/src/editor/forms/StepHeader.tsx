import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Typography from '@mui/material/Typography'
import type { Diagnostic, Step, ToolView } from '../../api/types'
import CommitField from './CommitField'
import FieldMessages from './FieldMessages'
import { withKey } from './objects'
import { identifierError } from './stepSettings'
import TextInput from './TextInput'
import type { StepFormProps } from './types'

interface Props {
  step: Step
  tool?: ToolView
  at(field: string): Diagnostic[]
  onChange: StepFormProps['onChange']
  onRename: StepFormProps['onRename']
}

/** Who the step is: its id (renamed through the editor, so references follow), tool, name, description. */
export default function StepHeader({ step, tool, at, onChange, onRename }: Props) {
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
        onChange={(v) => onChange(withKey(step, 'name', v), 'name')}
      />
      <TextInput
        label="Description"
        field="description"
        value={step.description}
        multiline
        diagnostics={at('description')}
        onChange={(v) => onChange(withKey(step, 'description', v), 'description')}
      />
    </Box>
  )
}
