import AccountTree from '@mui/icons-material/AccountTree'
import ContentCopy from '@mui/icons-material/ContentCopy'
import Download from '@mui/icons-material/Download'
import TableChart from '@mui/icons-material/TableChart'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import { useMemo, useState } from 'react'
import DataTable from './DataTable'
import JsonTree from './JsonTree'
import Section from './Section'
import { asTable } from './tableRows'

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const a = document.createElement('a')
  a.href = url
  a.download = `${name}.json`
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/**
 * A JSON value with Tree/Table views, Copy and Download. With `refPath` (`search.output`), its
 * fields can be dragged onto a step while editing to wire them in.
 */
export default function OutputView({ title, value, fileName, refPath }: { title: string; value: unknown; fileName: string; refPath?: string }) {
  const [view, setView] = useState<'tree' | 'table'>('tree')
  const [copied, setCopied] = useState(false)
  const table = useMemo(() => asTable(value), [value])
  const text = useMemo(() => JSON.stringify(value, null, 2) ?? 'undefined', [value])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {
      setCopied(false)
    }
  }
  const actions = (
    <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}>
      {table && (
        <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, v) => v && setView(v)} aria-label={`${title} view`}>
          <ToggleButton value="tree" sx={{ py: 0.1, px: 0.75, fontSize: 11 }}>
            <AccountTree sx={{ fontSize: 14, mr: 0.5 }} />
            Tree
          </ToggleButton>
          <ToggleButton value="table" sx={{ py: 0.1, px: 0.75, fontSize: 11 }}>
            <TableChart sx={{ fontSize: 14, mr: 0.5 }} />
            Table
          </ToggleButton>
        </ToggleButtonGroup>
      )}
      <Button size="small" startIcon={<ContentCopy sx={{ fontSize: 14 }} />} onClick={() => void copy()} sx={{ fontSize: 11 }}>
        {copied ? 'Copied' : 'Copy'}
      </Button>
      <Button size="small" startIcon={<Download sx={{ fontSize: 14 }} />} onClick={() => download(fileName, text)} sx={{ fontSize: 11 }}>
        Download
      </Button>
    </Box>
  )
  return (
    <Section title={title} actions={actions}>
      {view === 'table' && table ? <DataTable table={table} /> : <JsonTree value={value} refPath={refPath} />}
    </Section>
  )
}
