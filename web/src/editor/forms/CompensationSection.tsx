import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import { useState } from 'react'
import type { Compensation, Diagnostic, JsonValue } from '../../api/types'
import { hasError } from './diagnostics'
import FieldMessages from './FieldMessages'
import JsonField from './JsonField'
import { isObject, withKey } from './objects'
import { withCompensationTool } from './orchestration'
import type { StepUpdate } from './types'

interface Props {
  compensate?: Compensation
  /** The catalog's tool names, for the select. */
  toolNames: readonly string[]
  at(field: string): Diagnostic[]
  update: StepUpdate
}

const NONE = ''

/**
 * What undoes the step when the run ends badly after it completed: a tool and its inputs
 * (templates may read the step's own output). Folded away until opened or set.
 */
export default function CompensationSection({ compensate, toolNames, at, update }: Props) {
  const [open, setOpen] = useState(compensate !== undefined)
  const tool = compensate?.tool ?? NONE
  const names = tool === NONE || toolNames.includes(tool) ? toolNames : [tool, ...toolNames]
  const setTool = (next: string) => update((current) => withKey(current, 'compensate', withCompensationTool(current.compensate, next)), 'compensate.tool')
  const setInputs = (inputs: JsonValue | undefined) =>
    update(
      (current) => (current.compensate ? { ...current, compensate: { ...current.compensate, inputs: isObject(inputs) ? inputs : {} } } : current),
      'compensate.inputs',
    )
  return (
    <Box sx={{ mt: 2 }}>
      <Button onClick={() => setOpen(!open)} aria-expanded={open} sx={{ px: 0 }}>
        {open ? 'Hide the compensation' : compensate ? `Compensation: ${compensate.tool}` : 'Add a compensation'}
      </Button>
      {open && (
        <Box role="group" aria-label="Compensation" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <TextField
            select
            label="Undo with tool"
            value={tool}
            error={hasError(at('compensate.tool'))}
            helperText={
              <FieldMessages diagnostics={at('compensate.tool')} description="Runs once if the run fails or is cancelled after this step completed" />
            }
            fullWidth
            onChange={(e) => setTool(e.target.value)}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value={NONE}>(no compensation)</MenuItem>
            {names.map((name) => (
              <MenuItem key={name} value={name}>
                {name}
              </MenuItem>
            ))}
          </TextField>
          {compensate && (
            <JsonField
              label="Undo inputs"
              field="compensate.inputs"
              value={compensate.inputs}
              rows={4}
              description="The tool's inputs as JSON; templates may read this step's output"
              diagnostics={at('compensate.inputs')}
              check={(v) => (isObject(v) ? undefined : 'Must be a JSON object')}
              onChange={setInputs}
            />
          )}
        </Box>
      )}
    </Box>
  )
}
