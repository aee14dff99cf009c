import { expect, it } from 'vitest'
import { configSummary } from './configSummary'

it('summarises providers on one line', () => {
  expect(
    configSummary({
      offline: true,
      providers: [
        { id: 'embeddings', label: 'Embeddings', backend: 'local', configured: true, detail: '' },
        { id: 'store', label: 'Vector store', backend: 'local', configured: true, detail: '' },
        { id: 'llm', label: 'LLM', backend: 'none', configured: false, detail: '' },
      ],
    }),
  ).toBe('Offline: local embeddings · local store · no LLM')
})
