import Search from '@mui/icons-material/Search'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import InputAdornment from '@mui/material/InputAdornment'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useApp } from '../app/AppContext'
import { useRecentStore } from '../state/recentStore'
import { useWorkflowStore } from '../state/workflowStore'
import { fileNameOf, originOf } from '../state/workflowFile'
import { filterWorkflows, matches, SECTIONS } from './filterWorkflows'
import LibraryActions from './LibraryActions'
import LibraryItem from './LibraryItem'
import LibrarySection from './LibrarySection'

export default function LibraryPanel() {
  const app = useApp()
  const [query, setQuery] = useState('')
  const library = useWorkflowStore((s) => s.library)
  const libraryLoading = useWorkflowStore((s) => s.libraryLoading)
  const libraryError = useWorkflowStore((s) => s.libraryError)
  const openKey = useWorkflowStore((s) => s.current?.key)
  const recents = useRecentStore((s) => s.recents)

  const shown = filterWorkflows(library, query)
  const recentShown = recents.filter((r) => matches(query, r.name, r.key))
  const nothing = shown.length === 0 && recentShown.length === 0

  return (
    <Box
      component="nav"
      aria-label="Library"
      sx={{ width: 280, flexShrink: 0, borderRight: 1, borderColor: 'divider', display: 'flex', flexDirection: 'column', minHeight: 0 }}
    >
      <Box sx={{ p: 1.5, pb: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <LibraryActions />
        <TextField
          label="Search workflows"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          fullWidth
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      <Box sx={{ flex: 1, overflow: 'auto', minHeight: 0 }}>
        {recentShown.length > 0 && (
          <LibrarySection title="Recent">
            {recentShown.map((r) => (
              <LibraryItem key={r.key} workflowKey={r.key} name={r.name} origin={originOf(r.key)} recent selected={r.key === openKey} />
            ))}
          </LibrarySection>
        )}
        {SECTIONS.map(({ source, title }) => {
          const items = shown.filter((w) => w.source === source)
          if (items.length === 0) return null
          return (
            <LibrarySection key={source} title={title}>
              {items.map((w) => (
                <LibraryItem
                  key={w.id}
                  workflowKey={w.id}
                  name={w.name}
                  origin={fileNameOf(w.id)}
                  description={w.description}
                  steps={w.stepCount}
                  selected={w.id === openKey}
                />
              ))}
            </LibrarySection>
          )
        })}
        {libraryLoading && library.length === 0 && <Typography sx={{ p: 2, color: 'text.secondary' }}>Loading workflows…</Typography>}
        {libraryError && (
          <Box role="status" sx={{ p: 2 }}>
            <Typography variant="body2" sx={{ color: 'error.main' }}>
              {libraryError}
            </Typography>
            <Button onClick={() => void app.library.load()} sx={{ mt: 1 }}>
              Retry
            </Button>
          </Box>
        )}
        {!libraryLoading && !libraryError && nothing && (
          <Typography sx={{ px: 2, py: 1, color: 'text.secondary' }} variant="body2">
            {query ? 'No workflow matches.' : 'No workflows found.'}
          </Typography>
        )}
      </Box>
    </Box>
  )
}
