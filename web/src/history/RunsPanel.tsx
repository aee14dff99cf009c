//! The Runs panel: the open workflow's past runs, newest first (every workflow's when the one
//! open is not from the library), filtered by status (asked of the server) and by text; opening
//! one draws it on the canvas, ticking two compares them. Listed again when a run ends.
import Refresh from '@mui/icons-material/Refresh'
import Search from '@mui/icons-material/Search'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import InputAdornment from '@mui/material/InputAdornment'
import LinearProgress from '@mui/material/LinearProgress'
import List from '@mui/material/List'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useEffect, useMemo, useState } from 'react'
import { useApp } from '../app/AppContext'
import { useRunStore } from '../state/runStore'
import { useWorkflowStore } from '../state/workflowStore'
import CompareBar from './CompareBar'
import { pastKey, useHistoryStore } from './historyStore'
import { filterRuns, statusLabel, STATUS_FILTERS } from './runList'
import RunRow from './RunRow'

export default function RunsPanel() {
  const app = useApp()
  const [query, setQuery] = useState('')
  const [status, setStatus] = useState('')
  const past = useHistoryStore((s) => s.past)
  const key = useWorkflowStore((s) => s.current?.key)
  const openId = useWorkflowStore((s) => s.current?.id)
  const name = useWorkflowStore((s) => s.graph?.name ?? s.current?.label)
  const pastOpen = past && key === pastKey(past.run.runId) ? past : undefined
  const scope = pastOpen ? pastOpen.run.workflowId : openId
  const runs = useHistoryStore((s) => s.runs)
  const listing = useHistoryStore((s) => s.listing)
  const listError = useHistoryStore((s) => s.listError)
  const picked = useHistoryStore((s) => s.picked)
  // The run on the canvas (the past run, or one restarted from it) is the row marked open.
  const onCanvas = useRunStore((s) => s.runId)
  const shownRun = pastOpen ? onCanvas : undefined
  // Times are relative to the listing: "just now" becomes "1 min ago" on the next, not by the second.
  const now = useHistoryStore((s) => s.listedAt)

  useEffect(() => {
    void app.history.list(scope, status || undefined)
  }, [app, scope, status])

  // A run that ends (here or followed from another tab) is listed at once.
  useEffect(
    () =>
      app.stores.run.subscribe((run, prev) => {
        if (run.runId === prev.runId && prev.status === 'running' && run.status !== 'running') void app.history.refresh()
      }),
    [app],
  )

  const shown = filterRuns(runs, query)
  const startedAt = useMemo(() => new Map(runs.map((r) => [r.runId, r.startedAt])), [runs])

  return (
    <Box
      component="aside"
      aria-label="Runs"
      sx={{ width: 300, flexShrink: 0, borderRight: 1, borderColor: 'divider', display: 'flex', flexDirection: 'column', minHeight: 0 }}
    >
      <Box sx={{ p: 1.5, pb: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700, flex: 1, minWidth: 0 }} noWrap>
            Runs{' '}
            <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
              {scope ? `of ${name ?? scope}` : 'of every workflow'}
            </Typography>
          </Typography>
          <Tooltip title="List the runs again">
            <IconButton size="small" aria-label="Refresh runs" onClick={() => void app.history.refresh()}>
              <Refresh fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <TextField
            label="Filter runs"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            sx={{ flex: 1 }}
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
          <TextField select label="Status" value={status} onChange={(e) => setStatus(e.target.value)} sx={{ width: 116 }}>
            <MenuItem value="">All</MenuItem>
            {STATUS_FILTERS.map((s) => (
              <MenuItem key={s} value={s}>
                {statusLabel(s)}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        {!scope && key && !pastOpen && (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            This workflow is not in the library, so every workflow’s runs are listed.
          </Typography>
        )}
        <CompareBar />
      </Box>
      {listing && <LinearProgress aria-label="Listing runs" sx={{ flexShrink: 0 }} />}
      <Box sx={{ flex: 1, overflow: 'auto', minHeight: 0 }}>
        {listError && (
          <Typography role="status" variant="body2" sx={{ px: 2, py: 1, color: 'error.main' }}>
            Cannot list the runs: {listError}
          </Typography>
        )}
        {shown.length > 0 && (
          <List dense disablePadding aria-label="Past runs">
            {shown.map((r) => (
              <RunRow
                key={r.runId}
                run={r}
                open={r.runId === shownRun}
                picked={picked.includes(r.runId)}
                fromWhen={r.from ? startedAt.get(r.from.runId) : undefined}
                now={now}
                named={!scope}
              />
            ))}
          </List>
        )}
        {!listing && !listError && shown.length === 0 && (
          <Typography variant="body2" sx={{ px: 2, py: 1, color: 'text.secondary' }}>
            {runs.length > 0
              ? 'No run matches.'
              : status
                ? `No ${statusLabel(status).toLowerCase()} runs.`
                : 'No runs yet. Run the workflow and it is kept here.'}
          </Typography>
        )}
      </Box>
    </Box>
  )
}
