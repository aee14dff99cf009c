import Autocomplete from '@mui/material/Autocomplete'
import TextField from '@mui/material/TextField'
import { hasError } from './diagnostics'
import { fieldAttrs, type FieldProps } from './fieldProps'
import FieldMessages from './FieldMessages'
import { useFormContext } from './FormContext'

type Props = FieldProps<string[]>

/**
 * Step ids chosen from the document's steps (this step excluded). Ids that name no step stay
 * listed so they can be seen and removed. An optional field left empty loses its key.
 */
export default function StepIdsField(p: Props) {
  const { stepIds, stepId } = useFormContext()
  const value = p.value ?? []
  const options = stepIds.filter((id) => id !== stepId)
  return (
    <Autocomplete
      multiple
      options={options}
      value={value}
      filterSelectedOptions
      autoHighlight
      onChange={(_, next) => p.onChange(next.length === 0 && !p.required ? undefined : next)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={p.label}
          required={p.required}
          placeholder={value.length === 0 ? p.placeholder : undefined}
          error={hasError(p.diagnostics)}
          helperText={<FieldMessages diagnostics={p.diagnostics} description={p.description} />}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, ...fieldAttrs(p.field) },
          }}
        />
      )}
    />
  )
}
