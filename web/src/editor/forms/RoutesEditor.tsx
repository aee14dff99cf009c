import Add from '@mui/icons-material/Add'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { placeDiagnostics } from './diagnostics'
import FieldGroup from './FieldGroup'
import { fieldAttrs, type FieldProps } from './fieldProps'
import { useFormContext } from './FormContext'
import { removeAt, replaceAt } from './objects'
import RouteFields from './RouteFields'
import { newRoute, routeProblems, routeRows, routesOf, type RouteRow } from './routes'

/**
 * A `router` step's routes: add and remove routes, each with its id, description and steps
 * (chosen from the workflow's). Problems show as they are made — a taken id, a step in two
 * routes — before validation says so; the engine's own diagnostics show under their route.
 */
export default function RoutesEditor(p: FieldProps) {
  const { stepIds, stepId } = useFormContext()
  const rows = routeRows(p.value)
  const problems = routeProblems(rows, stepIds, stepId)
  const options = stepIds.filter((id) => id !== stepId)
  const fields = rows.map((_, i) => `${p.field}[${i}]`)
  const placed = placeDiagnostics(p.diagnostics, fields)
  const write = (next: RouteRow[]) => p.onChange(next.length === 0 && !p.required ? undefined : routesOf(next))
  return (
    <FieldGroup label={p.label} required={p.required} description={p.description} diagnostics={placed.rest}>
      {rows.map((row, i) => (
        <RouteFields
          key={i}
          row={row}
          n={i + 1}
          field={fields[i]}
          problems={problems[i]}
          diagnostics={placed.at(fields[i])}
          options={options}
          onChange={(next) => write(replaceAt(rows, i, next))}
          onRemove={() => write(removeAt(rows, i))}
        />
      ))}
      <Box>
        <Button size="small" startIcon={<Add />} onClick={() => write([...rows, newRoute(rows)])} {...(rows.length === 0 ? fieldAttrs(p.field) : {})}>
          Add route
        </Button>
      </Box>
    </FieldGroup>
  )
}
