//! What a waiting run waits for: the `yield` step's message and a form built from its
//! `expects`, checked as the server checks it, sent with `POST /api/runs/{id}/input`. The
//! socket's events, not the reply, move the run on (and take this form away) — in every tab.
import Send from '@mui/icons-material/Send'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import { useMemo, useState } from 'react'
import { ApiError, errorInfo } from '../api/client'
import type { WaitingFor } from '../api/types'
import { useApp } from '../app/AppContext'
import type { FormValue, FormValues } from '../runbar/coerce'
import { stepName, useWorkflowStore } from '../state/workflowStore'
import AnswerField from './AnswerField'
import { answerFields, initialAnswer, serverErrors, toAnswer } from './answerForm'
import Section from './Section'

interface Props {
  runId: string
  waiting: WaitingFor
}

export default function AnswerForm({ runId, waiting }: Props) {
  const { runs } = useApp()
  const fields = useMemo(() => answerFields(waiting.expects), [waiting.expects])
  const [values, setValues] = useState<FormValues>(() => initialAnswer(fields))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [note, setNote] = useState<{ text: string; error: boolean }>()
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState(false)
  const top = waiting.within[0] ?? waiting.stepId
  const where = useWorkflowStore((s) => stepName(s.graph, top) ?? top)
  const path = [where, ...waiting.within.slice(1), ...(waiting.within.length > 0 ? [waiting.stepId] : [])].join(' › ')

  const change = (name: string, value: FormValue) => {
    setValues((v) => ({ ...v, [name]: value }))
    setErrors(({ [name]: _fixed, ...rest }) => rest)
  }

  const submit = async () => {
    const answer = toAnswer(fields, values)
    setErrors(answer.errors)
    setNote(undefined)
    if (Object.keys(answer.errors).length > 0) return
    setBusy(true)
    try {
      await runs.answer(runId, { stepId: waiting.stepId, input: answer.input })
      setSent(true)
    } catch (e) {
      if (e instanceof ApiError && e.code === 'INVALID_ANSWER') {
        const { byField, rest } = serverErrors(fields, e.fields)
        setErrors(byField)
        setNote({ text: rest.length > 0 ? rest.join('; ') : e.message, error: true })
      } else if (e instanceof ApiError && e.code === 'NOT_WAITING') {
        setNote({ text: `The run no longer waits for this answer (answered elsewhere?): ${e.message}`, error: false })
      } else {
        setNote({ text: `Could not send the answer: ${errorInfo(e).message}`, error: true })
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <Box data-testid="answer-form" sx={{ mb: 2 }}>
      <Section title="Waiting for your answer">
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {path}
          {waiting.deadlineMs !== undefined && ` · times out at ${new Date(waiting.deadlineMs).toLocaleString()}`}
        </Typography>
        <Typography variant="body1" sx={{ whiteSpace: 'pre-wrap', my: 1 }}>
          {waiting.message}
        </Typography>
        <Box
          component="form"
          noValidate
          aria-label="Answer"
          onSubmit={(e) => {
            e.preventDefault()
            if (!busy && !sent) void submit()
          }}
          sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
        >
          {fields.map((f) => (
            <AnswerField key={f.name} field={f} value={values[f.name]} error={errors[f.name]} disabled={busy || sent} onChange={(v) => change(f.name, v)} />
          ))}
          {note && (
            <Alert severity={note.error ? 'error' : 'info'} role="alert">
              {note.text}
            </Alert>
          )}
          <Box>
            <Button type="submit" variant="contained" startIcon={<Send />} disabled={busy || sent}>
              {sent ? 'Sent' : 'Submit'}
            </Button>
          </Box>
        </Box>
      </Section>
    </Box>
  )
}
