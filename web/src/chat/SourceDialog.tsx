//! One source's document, as the answer saw it: its title, where it came from, its relevance and
//! its text (as kept: at most 8 KB).
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Typography from '@mui/material/Typography'
import type { ChatSource } from '../api/types'
import { relevance } from './format'

export default function SourceDialog({ source, onClose }: { source?: ChatSource; onClose(): void }) {
  return (
    <Dialog open={source !== undefined} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="chat-source-title">
      {source && (
        <>
          <DialogTitle id="chat-source-title">
            [{source.index}] {source.title}
          </DialogTitle>
          <DialogContent>
            <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mb: 1 }}>
              {[source.collection && `from ${source.collection}`, source.score !== undefined && `relevance ${relevance(source.score)}`]
                .filter(Boolean)
                .join(' · ')}
            </Typography>
            <Typography component="div" variant="body2" data-testid="chat-source-text" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {source.text || '(this document has no text)'}
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  )
}
