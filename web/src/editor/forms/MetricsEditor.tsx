import Add from '@mui/icons-material/Add'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useState } from 'react'
import { placeDiagnostics } from './diagnostics'
import FieldGroup from './FieldGroup'
import { fieldAttrs, type FieldProps } from './fieldProps'
import MetricFields from './MetricFields'
import { metricProblems, metricRows, metricsOf, newMetric, type MetricRow } from './metrics'
import { removeAt, replaceAt, sameJson } from './objects'

/**
 * An `evaluator` step's metrics: add and remove metrics, each with a name, a range (1 to 5
 * unless set) and a description. The rows keep the bounds as typed; a bound that is not a
 * number yet is not written, and says so, as do a taken name and a min above its max.
 */
export default function MetricsEditor(p: FieldProps) {
  const [draft, setDraft] = useState(() => ({ rows: metricRows(p.value), of: p.value }))
  // An outside change (undo, the step's JSON) replaces the rows; our own echo leaves them alone.
  if (!sameJson(draft.of, p.value)) setDraft({ rows: metricRows(p.value), of: p.value })
  const { rows } = draft
  const write = (next: MetricRow[]) => {
    const value = next.length === 0 && !p.required ? undefined : metricsOf(next)
    setDraft({ rows: next, of: value })
    if (!sameJson(value, p.value)) p.onChange(value)
  }
  const problems = metricProblems(rows)
  const fields = rows.map((_, i) => `${p.field}[${i}]`)
  const placed = placeDiagnostics(p.diagnostics, fields)
  return (
    <FieldGroup label={p.label} required={p.required} description={p.description} diagnostics={placed.rest}>
      {rows.map((row, i) => (
        <MetricFields
          key={i}
          row={row}
          n={i + 1}
          field={fields[i]}
          problems={problems[i]}
          diagnostics={placed.at(fields[i])}
          onChange={(next) => write(replaceAt(rows, i, next))}
          onRemove={() => write(removeAt(rows, i))}
        />
      ))}
      <Box>
        <Button size="small" startIcon={<Add />} onClick={() => write([...rows, newMetric(rows)])} {...(rows.length === 0 ? fieldAttrs(p.field) : {})}>
          Add metric
        </Button>
      </Box>
    </FieldGroup>
  )
}
