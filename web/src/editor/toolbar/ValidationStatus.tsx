//! How the document stands as it is edited: being checked, valid, or how many problems the
//! draft-mode validation found — and whether the server could be asked at all.
import Typography from '@mui/material/Typography'
import { useEditor } from '../useEditor'

export default function ValidationStatus() {
  const analysing = useEditor((s) => s.analysing)
  const failed = useEditor((s) => s.analysisError)
  const errors = useEditor((s) => s.analysis.diagnostics.filter((d) => d.severity === 'error').length)
  const warnings = useEditor((s) => s.analysis.diagnostics.filter((d) => d.severity === 'warning').length)
  let text: string
  let color = 'text.secondary'
  if (failed) {
    text = `Not checked: ${failed} Your edits are kept in this browser.`
    color = 'error.main'
  } else if (analysing) text = 'Checking…'
  else if (errors > 0 || warnings > 0) {
    text = [errors > 0 && `${errors} error${errors === 1 ? '' : 's'}`, warnings > 0 && `${warnings} warning${warnings === 1 ? '' : 's'}`]
      .filter(Boolean)
      .join(' · ')
    color = errors > 0 ? 'error.main' : 'warning.main'
  } else text = 'Valid'
  return (
    <Typography variant="body2" role="status" data-testid="validation-status" noWrap title={text} sx={{ color, px: 1, minWidth: 0, flexShrink: 1 }}>
      {text}
    </Typography>
  )
}
