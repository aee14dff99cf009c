import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { checkImport, MAX_WORKFLOW_BYTES } from './checkImport'

const planText = vi.fn(async () => ({
  valid: false,
  diagnostics: [{ severity: 'error' as const, code: 'INVALID_JSON' as const, message: 'trailing comma', line: 3, column: 7 }],
}))

describe('checkImport', () => {
  it('accepts a workflow object', async () => {
    expect(await checkImport({ planText }, '{"name": "w", "steps": []}', 'w.json')).toEqual({ doc: { name: 'w', steps: [] } })
  })

  it('names the line and column of a JSON error, from the server', async () => {
    const result = await checkImport({ planText }, '{"a": 1,}', 'pasted.json')
    expect(result).toEqual({ error: 'pasted.json is not valid JSON at line 3:7: trailing comma. Nothing was changed.' })
  })

  it('still refuses bad JSON when the server cannot be asked', async () => {
    const down = vi.fn(async () => {
      throw new ApiError('UNREACHABLE', 'Cannot reach the vai playground server.')
    })
    expect(await checkImport({ planText: down }, '{', 'x')).toEqual({ error: expect.stringMatching(/not valid JSON \(Cannot reach/) })
  })

  it('refuses a file over 5 MB without parsing it', async () => {
    const big = `{"name": "${'x'.repeat(MAX_WORKFLOW_BYTES)}", "steps": []}`
    expect(await checkImport({ planText }, big, 'big.json')).toEqual({
      error: expect.stringMatching(/big\.json is 5\.0 MB; workflow files are limited to 5 MB/),
    })
  })

  it('refuses JSON that is not a workflow', async () => {
    expect(await checkImport({ planText }, '[1, 2]', 'list.json')).toEqual({ error: expect.stringMatching(/not a workflow/) })
    expect(await checkImport({ planText }, '{"steps": 3}', 's.json')).toEqual({ error: expect.stringMatching(/"steps" must be a list/) })
  })
})
