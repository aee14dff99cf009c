//! Messages where the person is looking, just above the canvas: what an edit could not do, what
//! was saved or copied, and that unsaved changes were restored from this browser (with an offer
//! to discard them).
import Close from '@mui/icons-material/Close'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import { useApp } from '../../app/AppContext'
import { useEditSession } from '../editSession'
import { useEditor, useEditorStore } from '../useEditor'

function time(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
}

export default function NoticeBar() {
  const store = useEditorStore()
  const notice = useEditor((s) => s.notice)
  const restoredAt = useEditSession((s) => s.restoredAt)
  const savedJson = useEditor((s) => s.savedJson)
  const session = useApp().stores.editSession
  const dismissRestored = () => session.setState({ restoredAt: undefined })
  return (
    <>
      {restoredAt !== undefined && (
        <Alert
          severity="info"
          data-testid="draft-restored"
          sx={{ borderRadius: 0, py: 0 }}
          action={
            <>
              <Button
                color="inherit"
                size="small"
                disabled={savedJson === ''}
                onClick={() => {
                  store.getState().commit(JSON.parse(savedJson))
                  dismissRestored()
                }}
              >
                Discard changes
              </Button>
              <IconButton size="small" aria-label="Keep the restored changes" onClick={dismissRestored}>
                <Close fontSize="small" />
              </IconButton>
            </>
          }
        >
          Unsaved changes from {time(restoredAt)} were restored from this browser.
        </Alert>
      )}
      {notice && (
        <Alert
          severity={notice.tone}
          data-testid="editor-notice"
          sx={{ borderRadius: 0, py: 0 }}
          action={
            <IconButton size="small" aria-label="Dismiss" onClick={() => store.getState().setNotice(undefined)}>
              <Close fontSize="small" />
            </IconButton>
          }
        >
          {notice.text}
        </Alert>
      )}
    </>
  )
}
