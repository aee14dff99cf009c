//! "Restart from here" in a past run's step inspector: runs the step and everything downstream
//! of it again, the steps before it replaying the run's recorded outputs; the new run is
//! followed on the canvas.
import Replay from '@mui/icons-material/Replay'
import Button from '@mui/material/Button'
import Tooltip from '@mui/material/Tooltip'
import { useApp } from '../app/AppContext'
import { useRestart } from './useRestart'

export default function RestartButton({ stepId }: { stepId: string }) {
  const app = useApp()
  const { offered, can, why } = useRestart()
  if (!offered) return null
  return (
    <Tooltip title={why}>
      <span>
        <Button variant="outlined" startIcon={<Replay />} disabled={!can} onClick={() => void app.history.restart(stepId)}>
          Restart from here
        </Button>
      </span>
    </Tooltip>
  )
}
