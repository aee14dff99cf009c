import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { Diagnostic } from '../../api/types'
import ProblemsList, { SHOWN_PER_GROUP } from './ProblemsList'

const diagnostics: Diagnostic[] = [
  { severity: 'warning', code: 'MISSING_WORKFLOW_NAME', message: 'the workflow has no name', field: 'name' },
  { severity: 'error', code: 'UNKNOWN_STEP_REF', message: 'unknown step "serch"', stepId: 'merge', field: 'inputs.arrays[1]' },
  { severity: 'error', code: 'EMPTY_CONDITION', message: 'condition is empty', stepId: 'check', field: 'condition' },
]

describe('ProblemsList', () => {
  it('groups by severity with counts, naming step and field', () => {
    render(<ProblemsList diagnostics={diagnostics} onSelect={() => {}} />)
    const errors = screen.getByRole('list', { name: 'Errors (2)' })
    expect(within(errors).getAllByRole('listitem')).toHaveLength(2)
    expect(within(errors).getByText('step merge · inputs.arrays[1] · UNKNOWN_STEP_REF')).toBeTruthy()
    const warnings = screen.getByRole('list', { name: 'Warnings (1)' })
    expect(within(warnings).getByText('workflow · name · MISSING_WORKFLOW_NAME')).toBeTruthy()
    expect(screen.queryByRole('list', { name: /Info/ })).toBeNull()
  })

  it('selects an entry by click and by keyboard', () => {
    const onSelect = vi.fn()
    render(<ProblemsList diagnostics={diagnostics} onSelect={onSelect} />)
    fireEvent.click(screen.getByRole('button', { name: /unknown step "serch"/ }))
    expect(onSelect).toHaveBeenLastCalledWith(diagnostics[1])
    const entry = screen.getByRole('button', { name: /condition is empty/ })
    expect(entry.tabIndex).toBe(0)
    fireEvent.keyDown(entry, { key: 'Enter' })
    expect(onSelect).toHaveBeenLastCalledWith(diagnostics[2])
  })

  it('shows the first entries of a long group and the rest on request', () => {
    const many: Diagnostic[] = Array.from({ length: SHOWN_PER_GROUP + 7 }, (_, i) => ({
      severity: 'info',
      code: 'MISSING_STEP_NAME',
      message: `step s${i} has no name`,
      stepId: `s${i}`,
    }))
    render(<ProblemsList diagnostics={[diagnostics[1], ...many]} onSelect={() => {}} />)
    const infos = screen.getByRole('list', { name: `Info (${many.length})` })
    expect(within(infos).getAllByRole('listitem')).toHaveLength(SHOWN_PER_GROUP)
    expect(within(screen.getByRole('list', { name: 'Errors (1)' })).getAllByRole('listitem')).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: `Show all ${many.length}` }))
    expect(within(infos).getAllByRole('listitem')).toHaveLength(many.length)
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull()
  })

  it('says when there is nothing to fix', () => {
    render(<ProblemsList diagnostics={[]} onSelect={() => {}} />)
    expect(screen.getByRole('status').textContent).toBe('No problems.')
  })
})
