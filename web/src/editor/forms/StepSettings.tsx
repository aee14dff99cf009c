import Box from '@mui/material/Box'
import type { Diagnostic, JsonValue, Step } from '../../api/types'
import Section from '../../inspector/Section'
import BooleanField from './BooleanField'
import FieldGroup from './FieldGroup'
import NumberField from './NumberField'
import { isObject, withKey } from './objects'
import { FOR_EACH_CONCURRENCY, RETRY_SETTINGS, TIMEOUT_MS, type NumberSetting } from './stepSettings'
import StepIdsField from './StepIdsField'
import TemplateField from './TemplateField'
import type { StepFormProps } from './types'

interface Props {
  step: Step
  at(field: string): Diagnostic[]
  onChange: StepFormProps['onChange']
}

/** When and how the step runs: condition, forEach, retry, timeout, dependencies. */
export default function StepSettings({ step, at, onChange }: Props) {
  const set =
    (key: string, field = key) =>
    (value: JsonValue | undefined) =>
      onChange(withKey(step, key, value), field)
  const number = (s: NumberSetting, value: JsonValue | undefined, field: string, onValue: (v: JsonValue | undefined) => void) => (
    <NumberField
      key={s.key}
      label={s.label}
      field={field}
      value={typeof value === 'number' ? value : undefined}
      integer={s.integer}
      minimum={s.minimum}
      maximum={s.maximum}
      placeholder={s.default === undefined ? undefined : `default: ${s.default}`}
      description={s.description}
      diagnostics={at(field)}
      onChange={onValue}
    />
  )
  // A partial policy is what people write; the engine fills in the rest. Emptied, the key goes.
  const retry: { [key: string]: JsonValue } = isObject(step.retry) ? step.retry : {}
  const setRetry = (key: string) => (value: JsonValue | undefined) => {
    const next = withKey(retry, key, value)
    onChange(withKey(step, 'retry', Object.keys(next).length === 0 ? undefined : next), 'retry')
  }
  return (
    <Section title="Step settings">
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <TemplateField
          label="Condition"
          field="condition"
          mode="expression"
          value={step.condition}
          description="Expression; when it is false the step is skipped"
          placeholder="search.output.resultCount > 0"
          diagnostics={at('condition')}
          onChange={set('condition')}
        />
        <TemplateField
          label="For each"
          field="forEach"
          value={step.forEach}
          description="A template resolving to an array: the tool runs once per element, with item and index"
          placeholder="{{ inputs.questions }}"
          diagnostics={at('forEach')}
          onChange={set('forEach')}
        />
        {number(FOR_EACH_CONCURRENCY, step.forEachConcurrency, 'forEachConcurrency', set('forEachConcurrency'))}
        <BooleanField
          label="Continue on error"
          field="continueOnError"
          value={step.continueOnError}
          fallback={false}
          description="On failure, record the error and go on"
          diagnostics={at('continueOnError')}
          onChange={set('continueOnError')}
        />
        <StepIdsField
          label="Depends on"
          field="dependsOn"
          value={step.dependsOn}
          description="Steps that must finish first, when no template reference says so"
          diagnostics={at('dependsOn')}
          onChange={set('dependsOn')}
        />
        {number(TIMEOUT_MS, step.timeoutMs, 'timeoutMs', set('timeoutMs'))}
        <FieldGroup label="Retry" description="Retry transient failures (rate limits, timeouts, 5xx, network errors)" diagnostics={at('retry')}>
          <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
            {RETRY_SETTINGS.map((s) => number(s, retry[s.key], `retry.${s.key}`, setRetry(s.key)))}
          </Box>
        </FieldGroup>
      </Box>
    </Section>
  )
}
