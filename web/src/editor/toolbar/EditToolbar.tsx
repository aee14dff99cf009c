//! The builder's toolbar above the canvas: undo/redo, delete, duplicate, note, layout, fit view,
//! the validation status, save and export, and Done.
import AccountTree from '@mui/icons-material/AccountTree'
import Check from '@mui/icons-material/Check'
import ContentCopy from '@mui/icons-material/FileCopyOutlined'
import Delete from '@mui/icons-material/DeleteOutlined'
import FitScreen from '@mui/icons-material/FitScreen'
import StickyNote from '@mui/icons-material/StickyNote2Outlined'
import Redo from '@mui/icons-material/Redo'
import Undo from '@mui/icons-material/Undo'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Divider from '@mui/material/Divider'
import IconButton from '@mui/material/IconButton'
import Tooltip from '@mui/material/Tooltip'
import { useReactFlow } from '@xyflow/react'
import type { ReactNode } from 'react'
import { useApp } from '../../app/AppContext'
import { useCanvasView, useLegibleFit } from '../../canvas/useLegibleFit'
import { flowRect } from '../canvas/useEditorKeys'
import { isStepNode } from '../doc/model'
import { leaveAndReopen } from '../session/start'
import { useEditor, useEditorStore } from '../useEditor'
import SaveControls from './SaveControls'
import ValidationStatus from './ValidationStatus'

function Tool({
  label,
  shortcut,
  disabled,
  onClick,
  children,
}: {
  label: string
  shortcut?: string
  disabled?: boolean
  onClick(): void
  children: ReactNode
}) {
  return (
    <Tooltip title={shortcut ? `${label} (${shortcut})` : label}>
      <span>
        <IconButton size="small" aria-label={label} disabled={disabled} onClick={onClick}>
          {children}
        </IconButton>
      </span>
    </Tooltip>
  )
}

export default function EditToolbar() {
  const app = useApp()
  const store = useEditorStore()
  const canUndo = useEditor((s) => s.history.past.length > 0)
  const canRedo = useEditor((s) => s.history.future.length > 0)
  const selected = useEditor((s) => s.selection.length + s.edgeSelection.length)
  const hasSteps = useEditor((s) => s.selection.some(isStepNode))
  const { screenToFlowPosition } = useReactFlow()
  const legibleFit = useLegibleFit()
  const viewNow = useCanvasView()
  const s = () => store.getState()
  const fit = () => legibleFit()

  const addNote = () => {
    const canvas = flowRect()
    const at = canvas ? screenToFlowPosition({ x: canvas.left + 80, y: canvas.top + 80 }) : { x: 0, y: 0 }
    s().addNote(at)
  }

  return (
    <Box
      role="toolbar"
      aria-label="Editing"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, px: 1, py: 0.5, borderBottom: 1, borderColor: 'divider', flexWrap: 'wrap' }}
    >
      <Tool label="Undo" shortcut="Ctrl+Z" disabled={!canUndo} onClick={() => s().undo()}>
        <Undo fontSize="small" />
      </Tool>
      <Tool label="Redo" shortcut="Ctrl+Shift+Z" disabled={!canRedo} onClick={() => s().redo()}>
        <Redo fontSize="small" />
      </Tool>
      <Divider orientation="vertical" flexItem />
      <Tool
        label="Delete selected"
        shortcut="Delete"
        disabled={selected === 0}
        onClick={() => {
          if (s().edgeSelection.length > 0) void s().disconnectEdges(s().edgeSelection)
          if (s().selection.length > 0) void s().deleteNodes(s().selection)
        }}
      >
        <Delete fontSize="small" />
      </Tool>
      <Tool label="Duplicate" shortcut="Ctrl+D" disabled={!hasSteps} onClick={() => void s().duplicateSelection()}>
        <ContentCopy fontSize="small" />
      </Tool>
      <Tool label="Add note" onClick={addNote}>
        <StickyNote fontSize="small" />
      </Tool>
      <Tool
        label="Re-layout"
        onClick={() => {
          s().relayout(viewNow())
          // Once the nodes are drawn where the layout put them.
          requestAnimationFrame(fit)
        }}
      >
        <AccountTree fontSize="small" />
      </Tool>
      <Tool label="Fit view" onClick={fit}>
        <FitScreen fontSize="small" />
      </Tool>
      <Divider orientation="vertical" flexItem />
      <ValidationStatus />
      <Box sx={{ flex: 1 }} />
      <SaveControls />
      <Button startIcon={<Check />} onClick={() => void leaveAndReopen(app)}>
        Done
      </Button>
    </Box>
  )
}
