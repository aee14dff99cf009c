//! A small label saying how an answer was made: quoted from its sources, or not found in them.
//! A generated answer (or one whose method is unknown) gets none.
import Chip from '@mui/material/Chip'
import type { AnswerMethod } from '../api/types'
import { METHOD_LABEL } from './format'

const TITLE: Partial<Record<AnswerMethod, string>> = {
  extractive: 'Every sentence of this answer is quoted from the source it cites',
  declined: 'None of the sources found answers this question',
}

export default function MethodLabel({ method }: { method?: AnswerMethod }) {
  const label = method && METHOD_LABEL[method]
  if (!method || !label) return null
  return (
    <Chip
      size="small"
      variant="outlined"
      color={method === 'declined' ? 'warning' : 'default'}
      label={label}
      title={TITLE[method]}
      data-testid="answer-method"
      sx={{ height: 20, fontSize: 11, alignSelf: 'flex-start' }}
    />
  )
}
