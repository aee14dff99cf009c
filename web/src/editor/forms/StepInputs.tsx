import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Typography from '@mui/material/Typography'
import type { Diagnostic, JsonValue, Step, ToolView } from '../../api/types'
import Section from '../../inspector/Section'
import AnyField from './AnyField'
import ChildInputsField from './ChildInputsField'
import ChildWorkflowField from './ChildWorkflowField'
import ExpectsEditor from './ExpectsEditor'
import FieldMessages from './FieldMessages'
import { withKey } from './objects'
import type { ChildWorkflow } from './orchestration'
import SchemaField from './SchemaField'
import { inputKeys } from './stepSettings'
import type { StepUpdate } from './types'

interface Props {
  /** The step's tool name (the catalog may not know it: `tool` is then another's schema). */
  stepTool: string
  inputs: Step['inputs']
  tool: ToolView
  at(field: string): Diagnostic[]
  update: StepUpdate
  childWorkflows?: readonly ChildWorkflow[]
}

const NO_WORKFLOWS: readonly ChildWorkflow[] = []

/** The form generated from the tool's input schema. */
export default function StepInputs({ stepTool, inputs = {}, tool, at, update, childWorkflows = NO_WORKFLOWS }: Props) {
  const properties = tool.inputSchema.properties ?? {}
  const required = new Set(tool.inputSchema.required ?? [])
  const set = (key: string) => (value: JsonValue | undefined) =>
    update((current) => withKey(current, 'inputs', withKey(current.inputs ?? {}, key, value)), `inputs.${key}`)
  const keys = inputKeys({ inputs }, tool)
  const child = stepTool === 'workflow' ? childWorkflows.find((c) => c.value === inputs.workflow) : undefined
  return (
    <Section title="Inputs">
      <Typography variant="caption" component="div">
        <FieldMessages diagnostics={at('inputs')} />
      </Typography>
      {keys.length === 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          This tool takes no inputs.
        </Typography>
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {keys.map((key) =>
          stepTool === 'workflow' && key === 'workflow' ? (
            <ChildWorkflowField
              key={key}
              label={key}
              field="inputs.workflow"
              value={inputs[key]}
              choices={childWorkflows}
              required={required.has(key)}
              description={properties[key]?.description}
              diagnostics={at('inputs.workflow')}
              onChange={set(key)}
            />
          ) : child && key === 'inputs' ? (
            <ChildInputsField key={key} child={child} value={inputs[key]} at={at} onChange={set(key)} />
          ) : stepTool === 'yield' && key === 'expects' ? (
            <ExpectsEditor
              key={key}
              label="Answer fields"
              field="inputs.expects"
              value={inputs[key]}
              required={required.has(key)}
              description="What the person fills in; the answer is the step's output"
              diagnostics={at('inputs.expects')}
              onChange={set(key)}
            />
          ) : Object.hasOwn(properties, key) ? (
            <SchemaField
              key={key}
              label={key}
              field={`inputs.${key}`}
              schema={properties[key]}
              value={inputs[key]}
              required={required.has(key)}
              diagnostics={at(`inputs.${key}`)}
              onChange={set(key)}
            />
          ) : (
            <Box key={key} sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <AnyField
                  label={key}
                  field={`inputs.${key}`}
                  value={inputs[key]}
                  description={`Not an input of ${stepTool}`}
                  diagnostics={at(`inputs.${key}`)}
                  onChange={set(key)}
                />
              </Box>
              <IconButton size="small" aria-label={`Remove unknown input ${key}`} onClick={() => set(key)(undefined)} sx={{ mt: 0.75 }}>
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Box>
          ),
        )}
      </Box>
    </Section>
  )
}
