import Chip from '@mui/material/Chip'
import Tooltip from '@mui/material/Tooltip'
import Box from '@mui/material/Box'
import { useCatalogStore } from '../state/catalogStore'
import { configSummary } from './configSummary'

export default function ConfigChip() {
  const config = useCatalogStore((s) => s.config)
  if (!config) return null
  const details = (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {config.providers.map((p) => (
        <li key={p.id}>
          {p.label}: {p.backend}
          {p.detail ? ` (${p.detail})` : ''}
        </li>
      ))}
    </Box>
  )
  return (
    <Tooltip title={details}>
      <Chip size="small" variant="outlined" label={configSummary(config)} data-testid="config-status" />
    </Tooltip>
  )
}
