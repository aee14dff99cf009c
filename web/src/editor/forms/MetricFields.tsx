import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import TextField from '@mui/material/TextField'
import type { Diagnostic } from '../../api/types'
import { fieldAttrs } from './fieldProps'
import FieldMessages from './FieldMessages'
import { DEFAULT_RANGE, type MetricProblems, type MetricRow } from './metrics'

interface Props {
  row: MetricRow
  n: number
  /** `inputs.metrics[i]`, as diagnostics name it. */
  field: string
  problems: MetricProblems
  diagnostics: readonly Diagnostic[]
  onChange(row: MetricRow): void
  onRemove(): void
}

/** One metric of an evaluator: its name, the range its score falls in, and what it measures. */
export default function MetricFields({ row, n, field, problems, diagnostics, onChange, onRemove }: Props) {
  const name = row.name.trim() || `${n}`
  const bound = (key: 'min' | 'max') => (
    <TextField
      size="small"
      label={key === 'min' ? 'Min' : 'Max'}
      value={row[key]}
      placeholder={String(DEFAULT_RANGE[key])}
      error={problems[key] !== undefined}
      onChange={(e) => onChange({ ...row, [key]: e.target.value })}
      slotProps={{ htmlInput: { inputMode: 'decimal', ...fieldAttrs(`${field}.range.${key}`) }, inputLabel: { shrink: true } }}
    />
  )
  const notes = [problems.name, problems.min, problems.max].filter((x) => x !== undefined)
  return (
    <Box role="group" aria-label={`Metric ${name}`} sx={{ display: 'flex', flexDirection: 'column', gap: 0.75 }}>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 4.5rem 4.5rem auto', gap: 0.5, alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label="Metric name"
          value={row.name}
          required
          error={problems.name !== undefined}
          onChange={(e) => onChange({ ...row, name: e.target.value })}
          slotProps={{ htmlInput: fieldAttrs(`${field}.name`) }}
        />
        {bound('min')}
        {bound('max')}
        <IconButton size="small" aria-label={`Remove metric ${name}`} onClick={onRemove} sx={{ mt: 0.5 }}>
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Box>
      <TextField
        size="small"
        label="Description"
        placeholder="What a high score means"
        value={row.description}
        multiline
        fullWidth
        onChange={(e) => onChange({ ...row, description: e.target.value })}
        slotProps={{ htmlInput: fieldAttrs(`${field}.description`), inputLabel: { shrink: true } }}
        helperText={notes.length > 0 || diagnostics.length > 0 ? <FieldMessages diagnostics={diagnostics} note={notes} /> : undefined}
      />
    </Box>
  )
}
