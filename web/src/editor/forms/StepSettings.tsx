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
import type { StepUpdate } from './types'

/** The parts of a step this section shows. */
export type StepSettingsValues = Pick<Step, 'condition' | 'forEach' | 'forEachConcurrency' | 'continueOnError' | 'dependsOn' | 'timeoutMs' | 'retry'>

interface Props {
  settings: StepSettingsValues
  at(field: string): Diagnostic[]
  update: StepUpdate
}

/** When and how the step runs: condition, forEach, retry, timeout, dependencies. */
export default function StepSettings({ settings, at, update }: Props) {
  const set =
    (key: string, field = key) =>
    (value: JsonValue | undefined) =>
      update((current) => withKey(current, key, value), field)
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
  const retry: { [key: string]: JsonValue } = isObject(settings.retry) ? settings.retry : {}
  const setRetry = (key: string) => (value: JsonValue | undefined) =>
    update((current) => {
      const next = withKey(isObject(current.retry) ? current.retry : {}, key, value)
      return withKey(current, 'retry', Object.keys(next).length === 0 ? undefined : next)
    }, 'retry')
  return (
    <Section title="Step settings">
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <TemplateField
          label="Condition"
          field="condition"
          mode="expression"
          value={settings.condition}
          description="Expression; when it is false the step is skipped"
          placeholder="search.output.resultCount > 0"
          diagnostics={at('condition')}
          onChange={set('condition')}
        />
        <TemplateField
          label="For each"
          field="forEach"
          value={settings.forEach}
          description="A template resolving to an array: the tool runs once per element, with item and index"
          placeholder="{{ inputs.questions }}"
          diagnostics={at('forEach')}
          onChange={set('forEach')}
        />
        {number(FOR_EACH_CONCURRENCY, settings.forEachConcurrency, 'forEachConcurrency', set('forEachConcurrency'))}
        <BooleanField
          label="Continue on error"
          field="continueOnError"
          value={settings.continueOnError}
          fallback={false}
          description="On failure, record the error and go on"
          diagnostics={at('continueOnError')}
          onChange={set('continueOnError')}
        />
        <StepIdsField
          label="Depends on"
          field="dependsOn"
          value={settings.dependsOn}
          description="Steps that must finish first, when no template reference says so"
          diagnostics={at('dependsOn')}
          onChange={set('dependsOn')}
        />
        {number(TIMEOUT_MS, settings.timeoutMs, 'timeoutMs', set('timeoutMs'))}
        <FieldGroup label="Retry" description="Retry transient failures (rate limits, timeouts, 5xx, network errors)" diagnostics={at('retry')}>
          <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
            {RETRY_SETTINGS.map((s) => number(s, retry[s.key], `retry.${s.key}`, setRetry(s.key)))}
          </Box>
        </FieldGroup>
      </Box>
    </Section>
  )
}
