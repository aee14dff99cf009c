//! The inspector's side-by-side view of a step while two runs are compared (run B drawn): its
//! status, time and cost in A and B with the deltas, the resolved inputs that differ, how its
//! result list changed (documents in, out and moved, with ranks and scores), and other output
//! fields that differ.
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import type { StepDiff } from '../api/types'
import { formatDuration } from '../canvas/format'
import Section from '../inspector/Section'
import { formatUsd, formatUsdDelta } from '../usage/usage'
import { durationDelta, stepChange, type StepChange } from './diffView'
import FieldChanges from './FieldChanges'
import ResultsDiffTable from './ResultsDiffTable'
import { useStepDiff } from './useStepDiff'

const HEADLINE: Record<StepChange, string> = {
  same: 'The same in both runs: inputs, output and status.',
  changed: 'Differs between the two runs.',
  added: 'Only in run B: run A’s workflow did not have this step.',
  removed: 'Only in run A: run B’s workflow does not have this step.',
}

function pair<T>(a: T | undefined, b: T | undefined, format: (v: T) => string, delta?: string): string {
  const side = (v: T | undefined) => (v === undefined ? '—' : format(v))
  return `${side(a)} → ${side(b)}${delta ? ` (${delta})` : ''}`
}

export default function StepDiffView({ stepId }: { stepId: string }) {
  const step = useStepDiff(stepId)
  if (!step) return null
  return <StepDiffBody step={step} />
}

export function StepDiffBody({ step }: { step: StepDiff }) {
  const change = stepChange(step)
  const facts = [
    step.statusA !== step.statusB ? { key: 'Status', value: `${step.statusA ?? '—'} → ${step.statusB ?? '—'}` } : undefined,
    step.durationA !== undefined || step.durationB !== undefined
      ? { key: 'Time', value: pair(step.durationA, step.durationB, formatDuration, durationDelta(step.durationA, step.durationB)) }
      : undefined,
    step.costA !== undefined || step.costB !== undefined
      ? { key: 'Cost', value: pair(step.costA, step.costB, formatUsd, formatUsdDelta(step.costA, step.costB)) }
      : undefined,
  ].filter((f) => f !== undefined)
  return (
    <Box
      data-testid="step-diff-view"
      data-change={change}
      sx={{ mt: 2, p: 1.25, border: 1, borderColor: change === 'same' ? 'divider' : 'info.main', borderRadius: 1 }}
    >
      <Typography component="h3" variant="overline" sx={{ lineHeight: 1.6, color: 'text.secondary' }}>
        Run A → run B
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {HEADLINE[change]}
      </Typography>
      {facts.length > 0 && (
        <Box component="dl" sx={{ m: 0, mt: 0.5, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1, rowGap: 0.25, fontSize: 12 }}>
          {facts.map((f) => (
            <Box key={f.key} sx={{ display: 'contents' }}>
              <Box component="dt" sx={{ color: 'text.secondary' }}>
                {f.key}
              </Box>
              <Box component="dd" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
                {f.value}
              </Box>
            </Box>
          ))}
        </Box>
      )}
      {step.inputs.length > 0 && (
        <Section title="Changed inputs">
          <FieldChanges changes={step.inputs} label="Changed inputs" />
        </Section>
      )}
      {step.results && (
        <Section title="Results">
          <ResultsDiffTable results={step.results} />
        </Section>
      )}
      {step.outputs.length > 0 && (
        <Section title={step.results ? 'Other output changes' : 'Changed output'}>
          <FieldChanges changes={step.outputs} label="Changed output fields" />
        </Section>
      )}
      {step.outputChanged && !step.results && step.outputs.length === 0 && (
        <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
          The output differs as a whole (it is not an object of fields).
        </Typography>
      )}
    </Box>
  )
}
