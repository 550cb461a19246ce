/**
 * Presses "Run all" on a running `qa serve` (POST /api/runs) and waits until the run is over: the run as the API
 * reports it at the end. Throws when the server does not accept the run.
 */
export async function runAllAndWait<Run extends { status: string }>(url: string): Promise<Run> {
  const posted = await fetch(`${url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ all: true }),
  })
  if (posted.status !== 202) throw new Error(`POST ${url}/api/runs: ${posted.status} ${await posted.text()}`)
  const { run } = (await posted.json()) as { run: { id: string } }
  for (;;) {
    const done = ((await (await fetch(`${url}/api/runs/${run.id}`)).json()) as { run: Run }).run
    if (done.status !== 'queued' && done.status !== 'running') return done
    await new Promise((r) => setTimeout(r, 500))
  }
}
