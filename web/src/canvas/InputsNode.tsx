//! The workflow's inputs node: each declared input with its type (required ones starred).
import Input from '@mui/icons-material/Input'
import Box from '@mui/material/Box'
import type { NodeProps } from '@xyflow/react'
import { memo } from 'react'
import { IO_BAR, type InputsFlowNode } from './flowTypes'
import IoHeader from './IoHeader'
import IoList from './IoList'
import NodeFrame from './NodeFrame'

function InputsNode({ id, data, selected }: NodeProps<InputsFlowNode>) {
  const rows = data.inputs.map((input) => ({
    key: input.name,
    hint: input.description,
    label: (
      <>
        {input.name}
        {input.required && (
          <Box component="span" sx={{ color: 'error.main' }} aria-label="required">
            *
          </Box>
        )}
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {' '}
          {input.type}
        </Box>
      </>
    ),
  }))
  return (
    <NodeFrame id={id} color={IO_BAR} category="io" status="idle" handles="source" selected={selected}>
      <IoHeader icon={Input} label="Inputs" />
      <IoList rows={rows} empty="no inputs" />
    </NodeFrame>
  )
}

export default memo(InputsNode)
