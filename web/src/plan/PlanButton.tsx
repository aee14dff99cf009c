import AccountTree from '@mui/icons-material/AccountTree'
import Button from '@mui/material/Button'
import { useState } from 'react'
import { useWorkflowStore } from '../state/workflowStore'
import PlanDialog from './PlanDialog'

export default function PlanButton() {
  const [open, setOpen] = useState(false)
  const hasGraph = useWorkflowStore((s) => s.graph !== undefined)
  return (
    <>
      <Button variant="outlined" startIcon={<AccountTree />} onClick={() => setOpen(true)} disabled={!hasGraph}>
        Plan
      </Button>
      {open && <PlanDialog onClose={() => setOpen(false)} />}
    </>
  )
}
