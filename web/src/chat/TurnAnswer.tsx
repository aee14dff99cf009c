//! A turn's answer: its text (Markdown, citations linked), how it was made when it was not
//! written by the model (quoted from the sources, or not in them), and the passages a grounded
//! answer quotes. A citation first highlights the passage it follows; chosen again, or from the
//! source list, it opens the source.
import Box from '@mui/material/Box'
import { useCallback, useMemo, useState } from 'react'
import type { ChatSource } from '../api/types'
import AnswerText from './AnswerText'
import type { TurnView } from './chatReducer'
import MethodLabel from './MethodLabel'
import PassageList from './PassageList'
import { passageFor, passagesOf, type Passage } from './passages'

export default function TurnAnswer({ turn, onSource }: { turn: TurnView; onSource(source: ChatSource): void }) {
  const { answer, sources, method } = turn
  const passages = useMemo(() => passagesOf(sources, answer), [sources, answer])
  const [highlighted, setHighlighted] = useState<string>()
  const cite = useCallback(
    (source: ChatSource, nth: number) => {
      const passage = passageFor(passages, source.index, nth)
      if (passage && passage.key !== highlighted) setHighlighted(passage.key)
      else onSource(source)
    },
    [passages, highlighted, onSource],
  )
  const openPassage = useCallback(
    (passage: Passage) => {
      const source = sources.find((s) => s.index === passage.n)
      if (source) onSource(source)
    },
    [sources, onSource],
  )
  if (!answer && !method) return null
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.75 }}>
      {answer && <AnswerText text={answer} sources={sources} onCite={cite} />}
      <MethodLabel method={method} />
      <PassageList passages={passages} highlighted={highlighted} onOpen={openPassage} />
    </Box>
  )
}
