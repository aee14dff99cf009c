import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useState } from 'react'
import type { Step } from '../../api/types'
import JsonField from './JsonField'
import { stepJsonError } from './stepSettings'
import type { StepFormProps } from './types'

/** The whole step as JSON, for anything the form has no field for; unknown keys are kept. */
export default function StepJson({ step, onChange, initiallyOpen }: { step: Step; onChange: StepFormProps['onChange']; initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen)
  return (
    <Box sx={{ mt: 2 }}>
      <Button onClick={() => setOpen(!open)} aria-expanded={open} sx={{ px: 0 }}>
        {open ? 'Hide the step as JSON' : 'Edit the step as JSON'}
      </Button>
      {open && (
        <JsonField
          label="Step JSON"
          field="json"
          value={step}
          required
          rows={12}
          diagnostics={[]}
          check={(v) => stepJsonError(v, step.id)}
          onChange={(v) => v !== undefined && onChange(v as Step, 'json')}
        />
      )}
    </Box>
  )
}
