import List from '@mui/material/List'
import ListSubheader from '@mui/material/ListSubheader'
import type { ReactNode } from 'react'

export default function LibrarySection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <List dense disablePadding subheader={<ListSubheader sx={{ lineHeight: '32px', bgcolor: 'background.default' }}>{title}</ListSubheader>}>
      {children}
    </List>
  )
}
