import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Diagnostic } from './types'
import { ApiError, createApi } from './client'

const api = createApi()

const syntax: Diagnostic = { severity: 'error', code: 'INVALID_JSON', message: 'invalid JSON: trailing comma', line: 4, column: 18 }

function answer(status: number, body: unknown) {
  globalThis.fetch = (async () => new Response(JSON.stringify(body), { status })) as typeof fetch
}

describe('api.plan', () => {
  beforeEach(() => answer(200, { valid: true, diagnostics: [] }))

  it('answers a refusal that carries diagnostics with those diagnostics', async () => {
    answer(400, { error: { code: 'INVALID_WORKFLOW', message: 'not JSON', diagnostics: [syntax] } })
    expect(await api.plan({ text: '{ "a": 1, }' })).toEqual({ valid: false, diagnostics: [syntax] })
  })

  it('fails on a refusal without diagnostics', async () => {
    answer(413, { error: { code: 'PAYLOAD_TOO_LARGE', message: 'workflow files are limited to 5 MB' } })
    await expect(api.plan({ text: 'x' })).rejects.toEqual(new ApiError('PAYLOAD_TOO_LARGE', 'workflow files are limited to 5 MB', 413))
  })
})

describe('a 401', () => {
  it('is told to the client that met it, and to no other', async () => {
    const denied = vi.fn()
    const other = vi.fn()
    createApi(other)
    answer(401, { error: { code: 'UNAUTHORIZED', message: 'open the link vai playground printed' } })
    await expect(createApi(denied).tools()).rejects.toMatchObject({ status: 401 })
    expect(denied).toHaveBeenCalledTimes(1)
    expect(other).not.toHaveBeenCalled()
  })
})

describe('api.submitRunInput', () => {
  it('posts the answer to the run', async () => {
    let sent: { path: string; init?: RequestInit } | undefined
    globalThis.fetch = (async (path: string, init?: RequestInit) => {
      sent = { path, init }
      return new Response(JSON.stringify({ runId: 'r 1', status: 'running' }), { status: 202 })
    }) as typeof fetch
    expect(await api.submitRunInput('r 1', { stepId: 'ask', input: { ok: true } })).toEqual({ runId: 'r 1', status: 'running' })
    expect(sent?.path).toBe('/api/runs/r%201/input')
    expect(sent?.init?.method).toBe('POST')
    expect(JSON.parse(String(sent?.init?.body))).toEqual({ stepId: 'ask', input: { ok: true } })
  })

  it('rejects a refused answer with each bad field', async () => {
    const fields = [{ field: 'seats', message: 'must be at most 9' }]
    answer(400, { error: { code: 'INVALID_ANSWER', message: 'the answer does not fit', fields } })
    await expect(api.submitRunInput('r1', { input: { seats: 12 } })).rejects.toMatchObject({ code: 'INVALID_ANSWER', status: 400, fields })
    answer(409, { error: { code: 'NOT_WAITING', message: 'run r1 is not waiting' } })
    await expect(api.submitRunInput('r1', { input: {} })).rejects.toMatchObject({ code: 'NOT_WAITING', status: 409, fields: [] })
  })
})

describe('the history routes', () => {
  let paths: string[]
  beforeEach(() => {
    paths = []
    globalThis.fetch = (async (path: string) => {
      paths.push(path)
      return new Response(JSON.stringify({ runs: [] }), { status: 200 })
    }) as typeof fetch
  })

  it('lists with only the filters that are set', async () => {
    await api.history()
    await api.history({ workflowId: 'builtin:multi-collection-search', status: 'failed', since: 1700000000000 })
    await api.history({ workflowId: undefined, status: '' })
    expect(paths).toEqual(['/api/history', '/api/history?workflowId=builtin%3Amulti-collection-search&status=failed&since=1700000000000', '/api/history'])
  })

  it('diffs A against B and restarts a run by id', async () => {
    await api.diffRuns('r1', 'r 2')
    await api.restartRun('r1', { from: 'rerank_all' })
    expect(paths).toEqual(['/api/history/diff?a=r1&b=r+2', '/api/history/r1/restart'])
  })
})
