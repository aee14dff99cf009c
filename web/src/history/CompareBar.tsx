//! Under the Runs panel's filters: how many runs are ticked, and Compare once two are.
import CompareArrows from '@mui/icons-material/CompareArrows'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import { useApp } from '../app/AppContext'
import { useHistoryStore } from './historyStore'

export default function CompareBar() {
  const app = useApp()
  const picked = useHistoryStore((s) => s.picked)
  const comparing = useHistoryStore((s) => s.comparison?.loading === true)
  const [x, y] = picked
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minHeight: 30 }}>
      <Typography variant="caption" role="status" sx={{ color: 'text.secondary', flex: 1 }}>
        {picked.length === 0 ? 'Tick two runs to compare them.' : picked.length === 1 ? 'Tick one more run to compare.' : 'Two runs ticked.'}
      </Typography>
      {picked.length > 0 && (
        <Button size="small" onClick={() => app.history.clearPicks()}>
          Clear
        </Button>
      )}
      <Button
        size="small"
        variant="contained"
        startIcon={<CompareArrows />}
        disabled={picked.length < 2 || comparing}
        onClick={() => x && y && void app.history.compare(x, y)}
      >
        Compare
      </Button>
    </Box>
  )
}
