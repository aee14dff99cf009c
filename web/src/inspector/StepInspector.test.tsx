import { render, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import type { StepNode } from '../api/types'
import { useCatalogStore } from '../state/catalogStore'
import { useWorkflowStore } from '../state/workflowStore'
import { definition, graph } from '../test/fakeServer'
import { toolView } from '../test/toolView'
import StepInspector from './StepInspector'

const explain = { topic: 'vector-search', title: 'Vector search', text: 'This step asks the vector index for the closest chunks.' }

function stepNode(id: string): StepNode {
  const node = graph.nodes.find((n) => n.id === id)
  if (node?.kind !== 'step') throw new Error(id)
  return node
}

beforeEach(() => {
  useCatalogStore.setState({ tools: { search: toolView('search', { explain }), merge: toolView('merge') }, categories: [], loaded: true })
  useWorkflowStore.setState({ current: { key: 'builtin:two', label: 'Two Steps', text: '', definition }, graph })
})

describe('StepInspector', () => {
  it('says what a step of its tool is doing, and which topic vai explain has', () => {
    render(<StepInspector node={stepNode('search')} />)
    const heading = screen.getByRole('heading', { name: 'What is happening here' })
    const section = heading.closest('section')
    expect(section).not.toBeNull()
    const inside = within(section as HTMLElement)
    expect(inside.getByText(explain.text)).toBeTruthy()
    expect(inside.getByText('vai explain vector-search')).toBeTruthy()
    expect(section?.textContent).toContain('More on Vector search:')
  })

  it('shows no such section for a tool without a note', () => {
    render(<StepInspector node={stepNode('merge')} />)
    expect(screen.getByRole('heading', { name: 'Merge it' })).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'What is happening here' })).toBeNull()
  })
})
