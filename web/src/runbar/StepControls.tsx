//! The run bar's step-through controls: Step (run pausing before each step), and while a run
//! waits before a step, Next and Continue; the pace. Also the keys (useStepKeys) and, when a
//! pause arrives, the paused step selected so the inspector shows the inputs it will get.
import FastForward from '@mui/icons-material/FastForward'
import SkipNext from '@mui/icons-material/SkipNext'
import Start from '@mui/icons-material/Start'
import Button from '@mui/material/Button'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import Tooltip from '@mui/material/Tooltip'
import { useEffect } from 'react'
import { useApp } from '../app/AppContext'
import { useCanvasStore } from '../canvas/useCanvasStore'
import { useStoredState } from '../hooks/useStoredState'
import { useRunStore } from '../state/runStore'
import { PACE_KEY, PACES } from '../state/stepActions'
import { NEXT_KEYS } from './stepKeys'
import { useStepKeys } from './useStepKeys'

const PACE_LABEL = (ms: number) => (ms === 0 ? 'Off' : `${ms / 1000} s`)

export interface StepControlsProps {
  /** Starts the run pausing before each step (the run bar checks the inputs first). */
  onStep(): void
  canRun: boolean
  /** Why the run cannot start, for the tooltip. */
  why: string
}

export default function StepControls({ onStep, canRun, why }: StepControlsProps) {
  const { stepping } = useApp()
  const focusNode = useCanvasStore((s) => s.focus)
  const runId = useRunStore((s) => s.runId)
  const pausedId = useRunStore((s) => s.paused?.stepId)
  const [stored, setPace] = useStoredState<number>(PACE_KEY, 0)
  const pace = PACES.find((p) => p === stored) ?? 0
  useStepKeys()

  useEffect(() => {
    if (runId && pausedId) focusNode(pausedId)
  }, [runId, pausedId, focusNode])

  return (
    <>
      {pausedId ? (
        <>
          <Tooltip describeChild title="Run this step and pause before the next (Space or →)">
            <Button variant="contained" color="warning" startIcon={<SkipNext />} onClick={() => void stepping.resume('next')} aria-keyshortcuts={NEXT_KEYS}>
              Next
            </Button>
          </Tooltip>
          <Tooltip describeChild title="Run on to the next breakpoint, or to the end">
            <Button variant="outlined" startIcon={<FastForward />} onClick={() => void stepping.resume('continue')}>
              Continue
            </Button>
          </Tooltip>
        </>
      ) : (
        <Tooltip title={why || 'Run one step at a time: pause before each step'}>
          <span>
            <Button variant="outlined" startIcon={<Start />} onClick={onStep} disabled={!canRun}>
              Step
            </Button>
          </span>
        </Tooltip>
      )}
      <Tooltip describeChild title="Show each step running for at least this long, to follow a fast workflow" placement="top">
        <TextField select size="small" label="Pace" value={pace} onChange={(e) => setPace(Number(e.target.value))} sx={{ width: 84, flexShrink: 0 }}>
          {PACES.map((ms) => (
            <MenuItem key={ms} value={ms}>
              {PACE_LABEL(ms)}
            </MenuItem>
          ))}
        </TextField>
      </Tooltip>
    </>
  )
}
