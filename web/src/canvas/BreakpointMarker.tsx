//! The breakpoint toggle at a step node's top-left corner: a red dot, always shown when set and
//! on hover, focus or selection otherwise. The run pauses before the step (breakpointStore.ts).
import Box from '@mui/material/Box'
import { useBreakpointStore } from '../state/breakpointStore'
import { BREAKPOINT_KEY } from '../runbar/stepKeys'

export default function BreakpointMarker({ id }: { id: string }) {
  const on = useBreakpointStore((s) => s.ids.includes(id))
  const toggle = useBreakpointStore((s) => s.toggle)
  return (
    <Box
      component="button"
      type="button"
      // React Flow leaves elements with these classes to themselves: no drag, no pan.
      className="nodrag nopan"
      data-testid={`breakpoint-${id}`}
      aria-label={`Breakpoint before ${id}`}
      aria-pressed={on}
      aria-keyshortcuts={BREAKPOINT_KEY}
      title={on ? 'Runs pause before this step: click (or B) to remove' : 'Pause runs before this step (B with the step selected)'}
      onClick={(e) => {
        e.stopPropagation()
        toggle(id)
      }}
      sx={{
        position: 'absolute',
        top: -6,
        left: -6,
        zIndex: 1,
        width: 14,
        height: 14,
        p: 0,
        borderRadius: '50%',
        border: 2,
        borderColor: 'background.paper',
        bgcolor: on ? 'error.main' : 'grey.500',
        cursor: 'pointer',
        opacity: on ? 1 : 0,
        transition: 'opacity 150ms',
        '.react-flow__node:hover &, .react-flow__node.selected &, .react-flow__node:focus-visible &, &:focus-visible': { opacity: 1 },
        '&:hover': { bgcolor: 'error.light' },
        '&:focus-visible': { outline: 2, outlineColor: 'primary.light', outlineOffset: 1 },
      }}
    />
  )
}
