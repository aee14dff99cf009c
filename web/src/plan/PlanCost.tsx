import Typography from '@mui/material/Typography'
import type { EstimateCost } from '../api/types'
import type { Cost } from '../api/types'
import { costText } from '../usage/usage'

/** About what the planned calls cost (the engine's estimate priced by the server's table), what that assumes, and why a price is missing. */
export default function PlanCost({ cost }: { cost: EstimateCost }) {
  const about = (c: Cost | undefined, what: string) => {
    const text = costText(c)?.text
    return text && `≈ ${text} ${what}`
  }
  const parts = [about(cost.fixed, 'per run'), about(cost.perItem, 'per forEach/loop item')].filter(Boolean)
  const reasons = [...new Set([cost.fixed?.reason, cost.perItem?.reason].filter((r): r is string => !!r))]
  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Estimated cost{parts.length === 0 ? ': no step calls a model' : ''}
      </Typography>
      {parts.length > 0 && <Typography variant="body2">{parts.join(' · ')}</Typography>}
      {reasons.map((r) => (
        <Typography key={r} variant="caption" sx={{ color: 'warning.main', display: 'block' }}>
          {r}
        </Typography>
      ))}
      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
        Prices {cost.assumptions}.
      </Typography>
    </>
  )
}
