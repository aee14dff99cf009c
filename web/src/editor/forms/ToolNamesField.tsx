import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete'
import Chip from '@mui/material/Chip'
import TextField from '@mui/material/TextField'
import { choiceOf, type ToolChoice } from './agentTools'
import { hasError } from './diagnostics'
import { fieldAttrs, type FieldProps } from './fieldProps'
import FieldMessages from './FieldMessages'
import { useFormContext } from './FormContext'

type Props = FieldProps<string[]>

const NO_CHOICES: readonly ToolChoice[] = []
const filter = createFilterOptions<ToolChoice>({ stringify: (c) => `${c.value} ${c.label} ${c.description ?? ''}` })

/**
 * What an `agent` step offers its model: vai's tools and the library's workflows, grouped. A
 * name typed that is neither is kept (Enter adds it) and marked unknown, so it can be seen and
 * removed. An optional field left empty loses its key.
 */
export default function ToolNamesField(p: Props) {
  const choices = useFormContext().agentTools ?? NO_CHOICES
  const value = (p.value ?? []).map((name) => choiceOf(name, choices))
  const unknown = value.filter((c) => c.group === 'Unknown').map((c) => c.value)
  return (
    <Autocomplete<ToolChoice, true, false, true>
      multiple
      freeSolo
      options={choices as ToolChoice[]}
      value={value}
      groupBy={(c) => c.group}
      getOptionLabel={(c) => (typeof c === 'string' ? c : c.label)}
      isOptionEqualToValue={(a, b) => a.value === (typeof b === 'string' ? b : b.value)}
      filterOptions={filter}
      filterSelectedOptions
      autoHighlight
      onChange={(_, next) => {
        const names = [...new Set(next.map((c) => (typeof c === 'string' ? c.trim() : c.value)).filter(Boolean))]
        p.onChange(names.length === 0 && !p.required ? undefined : names)
      }}
      renderValue={(chosen, getItemProps) =>
        chosen.map((c, index) => {
          const { key, ...itemProps } = getItemProps({ index })
          const choice = typeof c === 'string' ? choiceOf(c, choices) : c
          const known = choice.group !== 'Unknown'
          return (
            <Chip
              key={key}
              {...itemProps}
              size="small"
              label={known ? choice.value : `${choice.value} (unknown)`}
              color={known ? 'default' : 'warning'}
              variant={choice.group === 'Workflows' ? 'outlined' : 'filled'}
              title={known ? `${choice.group === 'Workflows' ? 'Workflow' : 'vai tool'}: ${choice.label}` : choice.description}
            />
          )
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={p.label}
          required={p.required}
          placeholder={value.length === 0 ? 'Tools and workflows the model may call' : undefined}
          error={hasError(p.diagnostics)}
          helperText={
            <FieldMessages
              diagnostics={p.diagnostics}
              note={unknown.length > 0 ? `Not a vai tool or a library workflow: ${unknown.join(', ')}` : undefined}
              description={p.description}
            />
          }
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, ...fieldAttrs(p.field) } }}
        />
      )}
    />
  )
}
