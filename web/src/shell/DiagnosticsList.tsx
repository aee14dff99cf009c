import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined'
import InfoOutlined from '@mui/icons-material/InfoOutlined'
import WarningAmber from '@mui/icons-material/WarningAmber'
import Box from '@mui/material/Box'
import ButtonBase from '@mui/material/ButtonBase'
import Typography from '@mui/material/Typography'
import type { Diagnostic } from '../api/types'
import { useCanvasStore } from '../canvas/useCanvasStore'
import { useWorkflowStore } from '../state/workflowStore'
import { monoFont } from '../theme'

const ICON = {
  error: <ErrorOutline fontSize="small" color="error" />,
  warning: <WarningAmber fontSize="small" color="warning" />,
  info: <InfoOutlined fontSize="small" color="info" />,
}

/** "line 4:18", "step merge · inputs.arrays", … */
function where(d: Diagnostic): string {
  const parts: string[] = []
  if (d.line !== undefined) parts.push(`line ${d.line}:${d.column ?? 1}`)
  if (d.stepId) parts.push(`step ${d.stepId}`)
  if (d.field) parts.push(d.field)
  return parts.join(' · ')
}

/**
 * The open workflow's diagnostics. With errors it is the `data-testid="diagnostics"` alert the
 * tests look for; warnings alone are listed quietly.
 */
export default function DiagnosticsList() {
  const diagnostics = useWorkflowStore((s) => s.diagnostics)
  const focusNode = useCanvasStore((s) => s.focus)
  if (diagnostics.length === 0) return null
  const errors = diagnostics.filter((d) => d.severity === 'error').length
  return (
    <Box
      data-testid={errors > 0 ? 'diagnostics' : 'diagnostic-notes'}
      role={errors > 0 ? 'alert' : 'status'}
      sx={{ maxHeight: '30%', overflow: 'auto', borderBottom: 1, borderColor: 'divider', px: 1.5, py: 1, flexShrink: 0 }}
    >
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        {errors > 0
          ? `${errors} error${errors === 1 ? '' : 's'} — this workflow cannot run until ${errors === 1 ? 'it is' : 'they are'} fixed`
          : `${diagnostics.length} note${diagnostics.length === 1 ? '' : 's'}`}{' '}
      </Typography>
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {diagnostics.map((d, i) => (
          <Box component="li" key={i} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', py: 0.25 }}>
            {ICON[d.severity]}
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" component="span">
                {d.stepId ? (
                  <ButtonBase
                    onClick={() => d.stepId && focusNode(d.stepId)}
                    sx={{ fontFamily: monoFont, color: 'primary.main', mr: 1, verticalAlign: 'baseline' }}
                  >
                    {where(d)}
                  </ButtonBase>
                ) : (
                  where(d) && (
                    <Box component="span" sx={{ fontFamily: monoFont, mr: 1 }}>
                      {where(d)}
                    </Box>
                  )
                )}
                {/* Spaces between the parts keep the text readable when copied (and word-bounded). */} {d.message}{' '}
              </Typography>
              <Typography variant="caption" sx={{ display: 'block', color: 'text.secondary', fontFamily: monoFont }}>
                {d.code}{' '}
              </Typography>
            </Box>
          </Box>
        ))}
      </Box>
    </Box>
  )
}
