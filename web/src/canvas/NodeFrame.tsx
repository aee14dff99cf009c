//! The card every canvas node is drawn in: category colour bar, handles (connectable while
//! editing), status look, selection outline, the validation badge, the critical path's ring
//! (the cost and time overlay), the ring of a step that changed between two compared runs, and
//! the test hooks (`data-testid`, `data-status`, `data-category`, `data-problem`,
//! `data-critical`, `data-diff`).
import Box from '@mui/material/Box'
import { keyframes } from '@mui/material/styles'
import type { SxProps, Theme } from '@mui/material/styles'
import { Handle, Position } from '@xyflow/react'
import type { ReactNode } from 'react'
import { useEditSession } from '../editor/editSession'
import { useWorkflowStore } from '../state/workflowStore'
import { CRITICAL_COLOR } from './criticalPath'
import type { StepChange } from '../history/diffView'
import type { NodeStatus } from './useStepRun'

const pulse = keyframes`
  0%, 100% { box-shadow: 0 0 0 1px var(--vai-glow), 0 0 6px 1px var(--vai-glow); }
  50% { box-shadow: 0 0 0 2px var(--vai-glow), 0 0 20px 6px var(--vai-glow); }
`

export interface NodeFrameProps {
  id: string
  /** A CSS colour (the category's) or a theme palette key such as `grey.500`. */
  color: string
  category: string
  status: NodeStatus
  glowing?: boolean
  title?: string
  /** Which sides take edges: inputs only send, output only receives. */
  handles: 'both' | 'source' | 'target'
  /** React Flow's own selection (multi-select while editing). */
  selected?: boolean
  /** A step-through run waits before this step. */
  paused?: boolean
  /** On the run's critical path (drawn while the cost and time overlay is on). */
  critical?: boolean
  /** How the step compares with run A, while two runs are compared. */
  diff?: StepChange
  /** Drawn over the card's top-left corner, outside its clipping (the breakpoint marker). */
  corner?: ReactNode
  children: ReactNode
}

/** One plain style object (what an `sx` array holds). */
type Style = Exclude<SxProps<Theme>, ReadonlyArray<unknown> | ((theme: Theme) => unknown)>

const HANDLE_STYLE = { width: 6, height: 6, border: 'none', background: '#8D99A6' }
/** Bigger while editing: a handle is where a connection is dragged from. */
const EDIT_HANDLE_STYLE = { width: 12, height: 12, border: '2px solid #8D99A6', background: '#161B22' }

const PROBLEM_TEXT = { error: 'has errors', warning: 'has warnings' } as const

export default function NodeFrame({
  id,
  color,
  category,
  status,
  glowing,
  title,
  handles,
  selected: picked,
  paused,
  critical,
  diff,
  corner,
  children,
}: NodeFrameProps) {
  const selected = useWorkflowStore((s) => s.selected === id) || picked === true
  const editing = useEditSession((s) => s.active)
  const problem = useEditSession((s) => s.problems[id])
  const handleStyle = editing ? EDIT_HANDLE_STYLE : HANDLE_STYLE
  return (
    <>
      {handles !== 'source' && <Handle type="target" position={Position.Left} isConnectable={editing} style={handleStyle} />}
      {corner}
      {problem && (
        <Box
          role="img"
          aria-label={PROBLEM_TEXT[problem]}
          title={PROBLEM_TEXT[problem]}
          data-testid={`node-problem-${id}`}
          sx={{
            position: 'absolute',
            top: -5,
            right: -5,
            width: 12,
            height: 12,
            borderRadius: '50%',
            zIndex: 1,
            bgcolor: problem === 'error' ? 'error.main' : 'warning.main',
            border: 2,
            borderColor: 'background.paper',
          }}
        />
      )}
      <Box
        data-testid={`node-${id}`}
        data-status={status}
        data-category={category}
        data-glowing={glowing ? 'true' : undefined}
        data-paused={paused ? 'true' : undefined}
        data-critical={critical ? 'true' : undefined}
        data-diff={diff}
        data-problem={problem}
        title={title}
        sx={[
          frameSx,
          statusSx[status] ?? {},
          glowing ? glowSx : {},
          critical ? criticalSx : {},
          diff ? (diffSx[diff] ?? {}) : {},
          selected ? selectedSx : {},
          paused ? pausedSx : {},
          // Last, so a status border colour never repaints the category bar.
          { '--vai-glow': status === 'retrying' ? '#FFB74D' : color, borderLeftColor: color },
        ]}
      >
        {children}
      </Box>
      {handles !== 'target' && <Handle type="source" position={Position.Right} isConnectable={editing} style={handleStyle} />}
    </>
  )
}

const frameSx: Style = {
  width: '100%',
  height: '100%',
  overflow: 'hidden',
  display: 'flex',
  flexDirection: 'column',
  gap: 0.25,
  px: 1.25,
  py: 0.75,
  bgcolor: 'background.paper',
  color: 'text.primary',
  border: 1,
  borderColor: 'divider',
  borderLeft: 5,
  borderRadius: 1.5,
  fontSize: 12,
  // Three lines of a step (a two-line title, the tool, the summary) fill its fixed height.
  lineHeight: 1.3,
  transition: 'opacity 200ms, border-color 200ms, box-shadow 300ms',
}

const statusSx: Partial<Record<NodeStatus, Style>> = {
  pending: { borderStyle: 'dashed', borderLeftStyle: 'solid', borderColor: 'text.secondary' },
  completed: { borderColor: 'success.main' },
  skipped: { opacity: 0.45 },
  failed: { borderColor: 'error.main', borderWidth: 2, borderLeftWidth: 5 },
  waiting: { borderColor: 'warning.main', borderWidth: 2, borderLeftWidth: 5, borderStyle: 'dashed', borderLeftStyle: 'solid' },
  cancelled: { opacity: 0.6, filter: 'grayscale(1)' },
}

const glowSx: Style = {
  animation: `${pulse} 1.1s ease-in-out infinite`,
  '@media (prefers-reduced-motion: reduce)': {
    animation: 'none',
    boxShadow: '0 0 0 2px var(--vai-glow), 0 0 12px 3px var(--vai-glow)',
  },
}

const selectedSx: Style = { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 }

/** A ring in its own colour, drawn as a shadow so the selection outline still shows around it. */
const criticalSx: Style = { boxShadow: `0 0 0 3px ${CRITICAL_COLOR}` }

/** A changed or added step is ringed (a shadow, as the critical path's), so it stands out at a glance. */
const diffSx: Partial<Record<StepChange, Style>> = {
  changed: { boxShadow: (theme) => `0 0 0 3px ${theme.palette.info.main}` },
  added: { boxShadow: (theme) => `0 0 0 3px ${theme.palette.success.main}` },
}

const pausedRing = keyframes`
  0%, 100% { outline-offset: 2px; }
  50% { outline-offset: 5px; }
`

/** Amber and thick, drawn over the selection outline: the canvas selects the paused step. */
const pausedSx: Style = {
  outline: 3,
  outlineColor: 'warning.main',
  outlineOffset: 2,
  animation: `${pausedRing} 1.4s ease-in-out infinite`,
  '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
}
