// The Chat panel offline: a question about the sample knowledge base answered by the local LLM,
// the answer (quoted from the sources) with what the assistant is doing, its sources listed and one opened,
// then — after a reload — the conversation resumed from the list with the earlier turn shown.
//
// It runs on a playground of its own with the local model (support/llm-playground.ts), whose
// .vai.json keeps answers to 48 tokens (`chat.maxTokens`) should the model write one.
import type { Page } from '@playwright/test'
import { llmPlayground } from '../support/llm-playground'
import { expect, test } from '../support/test'

const QUESTION = 'How do I authenticate requests to the Ledgerly API?'

const playground = llmPlayground('chat', { chat: { maxTokens: 48 } })

/** Record every length the newest answer's text reaches, to tell a streamed answer from one that appeared whole. */
async function recordAnswer(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __vaiAnswerLog: number[]; __vaiStateLog: string[] }
    w.__vaiAnswerLog = []
    w.__vaiStateLog = []
    const scan = () => {
      const answers = document.querySelectorAll('[data-testid="chat-answer"]')
      const length = answers[answers.length - 1]?.textContent?.length ?? 0
      if (length > 0 && w.__vaiAnswerLog[w.__vaiAnswerLog.length - 1] !== length) w.__vaiAnswerLog.push(length)
      const state = document.querySelector('[data-testid="chat-state"]')?.textContent?.trim()
      if (state && w.__vaiStateLog[w.__vaiStateLog.length - 1] !== state) w.__vaiStateLog.push(state)
    }
    new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
}

async function recorded(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { __vaiAnswerLog: number[]; __vaiStateLog: string[] }
    return { lengths: w.__vaiAnswerLog, states: w.__vaiStateLog }
  })
}

test('a question answered offline arrives with its sources, and the conversation resumes after a reload', async ({ page }, testInfo) => {
  // The local model answers in seconds; its first call also loads it.
  test.setTimeout(300_000)
  await page.goto(playground().printedUrl)
  await page.getByRole('button', { name: 'Show chat' }).click()
  const chat = page.getByRole('complementary', { name: 'Chat' })
  await expect(chat.getByTestId('chat-model-label')).toHaveText('local · SmolLM2-135M — small, grounded answers only')
  await expect(page).toHaveURL(/[?&]chat=new/)
  // The local model cannot call tools: agent mode is shown, and off.
  await expect(chat.getByRole('button', { name: 'Agent' })).toBeDisabled()

  await recordAnswer(page)
  await chat.getByRole('textbox', { name: 'Question' }).fill(QUESTION)
  await chat.getByRole('button', { name: 'Ask' }).click()
  await expect(chat.getByTestId('chat-question')).toHaveText(QUESTION)
  await expect(chat.getByRole('button', { name: 'Stop' })).toBeVisible()
  const turn = chat.getByTestId('chat-turn')
  await expect(turn).toHaveAttribute('data-phase', 'done', { timeout: 240_000 })
  await expect(chat.getByRole('button', { name: 'Ask' })).toBeVisible()

  const answer = (await chat.getByTestId('chat-answer').textContent())?.trim() ?? ''
  expect(answer.length).toBeGreaterThan(0)
  const seen = await recorded(page)
  testInfo.annotations.push({ type: 'answer', description: answer }, { type: 'seen', description: JSON.stringify(seen) })
  // The small model quotes its sources: the answer arrives whole, each sentence cited, and the
  // state line said what was going on.
  expect(seen.lengths.length, JSON.stringify(seen)).toBeGreaterThan(0)
  expect(answer).toMatch(/\[\d\]/)
  expect(
    seen.states.some((s) => s.startsWith('Searching')),
    JSON.stringify(seen),
  ).toBeTruthy()
  expect(seen.states, JSON.stringify(seen)).toContain('Answering')
  // The session now has an id, in the address bar too.
  await expect(page).toHaveURL(/[?&]chat=[0-9a-f]{32}/)

  // Sources: collapsed to a count, listed with number, title and relevance; one opens.
  await chat.getByRole('button', { name: /^Sources \(\d+\)$/ }).click()
  const sources = chat.getByRole('list', { name: 'Sources' })
  const first = sources.getByRole('button').first()
  await expect(first).toContainText(/^\[1\] /)
  await expect(first).toContainText(/relevance \d\.\d\d/)
  await expect(sources.getByRole('button', { name: /Authenticating Requests/ })).toBeVisible()
  await sources.getByRole('button', { name: /Authenticating Requests/ }).click()
  const dialog = page.getByRole('dialog', { name: /Authenticating Requests/ })
  await expect(dialog.getByTestId('chat-source-text')).toContainText('Authorization')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toBeHidden()

  // A new page load, without the conversation in the address: resume it from the list.
  await page.goto(`${playground().url}/`)
  await page.getByRole('button', { name: 'Show chat' }).click()
  await chat.getByRole('button', { name: 'Conversations' }).click()
  const list = chat.getByRole('list', { name: 'Conversations' })
  await list.getByRole('button', { name: new RegExp(`^${QUESTION.replace(/[?.]/g, '\\$&')}`) }).click()
  await expect(chat.getByTestId('chat-question')).toHaveText(QUESTION)
  await expect(chat.getByTestId('chat-turn')).toHaveAttribute('data-phase', 'done')
  await expect(chat.getByTestId('chat-answer')).toHaveText(answer)
  await expect(chat.getByRole('button', { name: /^Sources \(\d+\)$/ })).toBeVisible()
  await expect(page).toHaveURL(/[?&]chat=[0-9a-f]{32}/)

  const shot = testInfo.outputPath('chat-resumed.png')
  await page.screenshot({ path: shot })
  await testInfo.attach('resumed conversation', { path: shot, contentType: 'image/png' })
})
