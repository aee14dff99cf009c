// A run's answer reads as text, not as JSON: running rag-chat offline, the inspector shows the
// final output's answer rendered (Markdown) above the raw output, and the generate step's own
// answer the same way once it completes.
//
// It runs on a playground of its own with the local LLM (support/llm-playground.ts).
import { llmPlayground } from '../support/llm-playground'
import { expect, node, regions, runStatus, test } from '../support/test'

const playground = llmPlayground('markdown')

test('rag-chat run offline shows its answer rendered in the inspector', async ({ page }, testInfo) => {
  test.setTimeout(300_000)
  // Signed in to this server, then its rag-chat opened.
  await page.goto(playground().printedUrl)
  await page.goto(`${playground().url}/?workflow=${encodeURIComponent('builtin:rag-chat')}`)
  await expect(node(page, '__inputs')).toBeVisible()
  const { runBar, inspector } = regions(page)

  await runBar.getByRole('textbox', { name: /^question/ }).fill('How do I rotate an API key?')
  await runBar.getByRole('textbox', { name: /^collection(\s*\*)?$/ }).fill('api_docs')
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 240_000 })

  // The final output's answer, rendered, above the output as JSON (still there).
  const rendered = inspector.getByTestId('markdown-output').first()
  await expect(rendered).toBeVisible()
  await expect(rendered).not.toBeEmpty()
  await expect(inspector.getByText('Final output')).toBeVisible()
  const above = await rendered.evaluate((el) => {
    const json = Array.from(document.querySelectorAll('h3')).find((h) => h.textContent === 'Final output')
    return json !== undefined && (el.compareDocumentPosition(json) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0
  })
  expect(above).toBe(true)
  testInfo.annotations.push({ type: 'answer', description: (await rendered.textContent()) ?? '' })

  // The generate step, when it ran (it does when a source scored high enough), shows its answer the same way.
  if ((await node(page, 'generate_answer').getAttribute('data-status')) === 'completed') {
    await node(page, 'generate_answer').click()
    await expect(inspector.getByTestId('markdown-output').first()).toBeVisible()
    await expect(inspector.getByText('Resolved inputs')).toBeVisible()
  }

  const shot = testInfo.outputPath('rag-chat-answer.png')
  await page.screenshot({ path: shot })
  await testInfo.attach('rag-chat answer', { path: shot, contentType: 'image/png' })
})
