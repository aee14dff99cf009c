import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Autocomplete from '@mui/material/Autocomplete'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import IconButton from '@mui/material/IconButton'
import TextField from '@mui/material/TextField'
import type { Diagnostic } from '../../api/types'
import { hasError } from './diagnostics'
import { fieldAttrs } from './fieldProps'
import FieldMessages from './FieldMessages'
import type { RouteProblems, RouteRow } from './routes'

interface Props {
  row: RouteRow
  /** 1-based, for names while the id is empty. */
  n: number
  /** `inputs.routes[i]`, as diagnostics name it. */
  field: string
  problems: RouteProblems
  diagnostics: readonly Diagnostic[]
  /** The steps a route may list: the workflow's, the router excepted. */
  options: readonly string[]
  onChange(row: RouteRow): void
  onRemove(): void
}

/**
 * One route of a router: its id, what it is for (the description the router matches the input
 * against) and the steps that run when it is chosen. A step that is also in another route, or
 * that names no step, is marked on its chip and said under the field.
 */
export default function RouteFields({ row, n, field, problems, diagnostics, options, onChange, onRemove }: Props) {
  const name = row.id || `${n}`
  const stepNotes = Object.values(problems.steps)
  return (
    <Box role="group" aria-label={`Route ${name}`} sx={{ display: 'flex', flexDirection: 'column', gap: 0.75, borderLeft: 3, borderColor: '#7E57C2', pl: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
        <TextField
          size="small"
          label="Route id"
          value={row.id}
          required
          error={problems.id !== undefined}
          helperText={problems.id}
          fullWidth
          onChange={(e) => onChange({ ...row, id: e.target.value })}
          slotProps={{ htmlInput: fieldAttrs(`${field}.id`) }}
        />
        <IconButton size="small" aria-label={`Remove route ${name}`} onClick={onRemove} sx={{ mt: 0.5 }}>
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Box>
      <TextField
        size="small"
        label="Description"
        placeholder="What inputs this route is for: the router matches against it"
        value={row.description}
        multiline
        minRows={2}
        fullWidth
        onChange={(e) => onChange({ ...row, description: e.target.value })}
        slotProps={{ htmlInput: fieldAttrs(`${field}.description`), inputLabel: { shrink: true } }}
      />
      <Autocomplete
        multiple
        size="small"
        options={options.filter((id) => !row.steps.includes(id))}
        value={row.steps}
        autoHighlight
        onChange={(_, steps) => onChange({ ...row, steps })}
        renderValue={(steps, getItemProps) =>
          steps.map((step, index) => {
            const { key, ...itemProps } = getItemProps({ index })
            const problem = problems.steps[step]
            return <Chip key={key} {...itemProps} size="small" label={step} color={problem ? 'error' : 'default'} title={problem} />
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            label="Steps"
            placeholder={row.steps.length === 0 ? 'Steps that run on this route' : undefined}
            error={stepNotes.length > 0 || hasError(diagnostics)}
            helperText={<FieldMessages diagnostics={diagnostics} note={stepNotes} />}
            slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, ...fieldAttrs(`${field}.steps`) } }}
          />
        )}
      />
    </Box>
  )
}
