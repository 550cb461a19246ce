// Runner Inspector: plain JS, no build step. Agent layers of seed 004: data-testbot-* attributes, the hidden
// <pre id="testbot-results-json" data-testbot-results> once a run is finished, and window.__TESTBOT__.
;(() => {
  const token = new URLSearchParams(location.search).get('token')
  const store = { suites: [], invalid: [], serverRunning: false, inFlight: 0, loaded: false }
  const finishedRuns = new Set()
  const runWaiters = new Map()

  const api = async (path, init = {}) => {
    const headers = { ...(init.headers || {}) }
    if (token) headers.authorization = `Bearer ${token}`
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(path, { ...init, headers })
    const text = await res.text()
    const data = text ? JSON.parse(text) : null
    if (!res.ok) {
      const err = new Error(data?.message || `${res.status} ${res.statusText}`)
      err.code = data?.code
      err.details = data
      throw err
    }
    return data
  }
  const withToken = (url) => (token ? `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : url)

  const isRunning = () => store.serverRunning || store.inFlight > 0
  const cleanStep = (s) => ({ action: s.action, detail: s.detail, passed: s.passed, error: s.error || null })

  /** Seed 004 §6.1 TestBotResults. */
  const getResults = () => ({
    isRunning: isRunning(),
    summary: {
      total: store.suites.length,
      pass: store.suites.filter((s) => s.passed).length,
      fail: store.suites.filter((s) => s.status === 'done' && !s.passed).length,
    },
    suites: store.suites.map((s) => ({
      name: s.name,
      status: s.status,
      passed: s.passed,
      steps: s.steps.map(cleanStep),
    })),
  })

  // ---------------------------------------------------------------------------------------------- rendering
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag)
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue
      if (k === 'text') node.textContent = v
      else if (k === 'class') node.className = v
      else node.setAttribute(k, v === true ? '' : String(v))
    }
    for (const c of children) if (c) node.append(c)
    return node
  }

  const stepRow = (i, step, planned) => {
    const result = step ? (step.passed ? 'pass' : 'fail') : 'pending'
    const action = step ? step.action : planned ? planned.action : 'error'
    const detail = step ? step.detail : planned ? planned.detail : ''
    // a step that passed with a warning is shown as a warning (issue 28); seed 004's pass/fail attribute stays
    const warning = step?.passed && step.warning ? step.warning : null
    return el(
      'div',
      {
        class: warning ? 'step warning' : 'step',
        'data-testbot-step': i,
        'data-testbot-action': action,
        'data-testbot-step-result': result,
        'data-step-verdict': step ? (warning ? 'warning' : result) : null,
      },
      el('span', { class: 'n', text: String(i + 1) }),
      el('span', { class: 'action', text: warning ? `${action} · WARNING` : action }),
      el('span', { class: 'detail', text: detail }),
      step?.error ? el('div', { 'data-testbot-error': true, text: step.error }) : null,
      warning ? el('div', { class: 'step-warning', text: warning }) : null,
    )
  }

  const suiteNode = (s) => {
    const done = s.status === 'done'
    const badge = done
      ? s.passed
        ? ['pass', 'PASS']
        : ['fail', 'FAIL']
      : s.status === 'running'
        ? ['running', 'RUNNING']
        : ['', 'PLANNED']
    const head = el(
      'div',
      { class: 'suite-head' },
      el('span', { class: `badge ${badge[0]}`, text: badge[1] }),
      el('h3', { text: s.name }),
      el('span', { class: 'file', text: `${s.file} · ${s.platform}` }),
      el('span', { class: 'spacer' }),
      s.reports?.html
        ? el('a', {
            href: withToken(s.reports.html),
            target: '_blank',
            rel: 'noopener',
            'data-report': 'html',
            text: 'HTML report',
          })
        : null,
      el('button', {
        type: 'button',
        'data-testbot-run': s.index,
        title: `Run '${s.name}'`,
        text: done ? '↻ Re-run' : '▶ Run',
      }),
    )
    const node = el(
      'div',
      {
        class: 'suite',
        'data-testbot-suite': s.name,
        'data-testbot-index': s.index,
        'data-testbot-status': s.status,
        'data-testbot-result': done ? (s.passed ? 'pass' : 'fail') : null,
      },
      head,
    )
    const rows = el('div', { class: 'steps' })
    const count = Math.max(s.steps.length, s.status === 'done' ? 0 : (s.plannedSteps || []).length)
    for (let i = 0; i < count; i++) rows.append(stepRow(i, s.steps[i], (s.plannedSteps || [])[i]))
    if (count > 0) node.append(rows)
    if (s.error && !s.steps.some((st) => st?.error))
      node.append(el('div', { 'data-testbot-error': true, text: s.error }))
    return node
  }

  const render = () => {
    const list = document.getElementById('suites')
    list.replaceChildren(
      ...(store.suites.length
        ? store.suites.map(suiteNode)
        : [
            el('p', {
              class: 'empty',
              text: store.loaded ? 'No test cases found in the case folder.' : 'Loading suites…',
            }),
          ]),
    )
    const invalid = document.getElementById('invalid')
    invalid.replaceChildren(...store.invalid.map((c) => el('p', { class: 'invalid', text: `${c.file}: ${c.message}` })))
    const r = getResults()
    const summary = document.getElementById('summary')
    summary.replaceChildren(
      `${r.summary.total} suites · `,
      el('b', { class: 'pass', text: `${r.summary.pass} pass` }),
      ' · ',
      el('b', { class: 'fail', text: `${r.summary.fail} fail` }),
      isRunning() ? ' · running…' : '',
    )
    // Seed 004 §5/§8.3: the hidden JSON exists only when a run is finished (not while running).
    const slot = document.getElementById('results-slot')
    const finished = !isRunning() && store.suites.some((s) => s.status === 'done')
    if (finished) {
      const json = store.suites
        .filter((s) => s.status === 'done')
        .map((s) => ({ name: s.name, passed: s.passed, steps: s.steps.map(cleanStep) }))
      slot.replaceChildren(
        el('pre', {
          id: 'testbot-results-json',
          'data-testbot-results': true,
          style: 'display:none',
          text: JSON.stringify(json, null, 2),
        }),
      )
    } else slot.replaceChildren()
    document.body.dataset.testbotRunning = String(isRunning())
  }

  const notice = (message) => {
    const n = document.getElementById('notice')
    n.textContent = message || ''
    n.classList.toggle('show', Boolean(message))
  }

  // ------------------------------------------------------------------------------------------- state + runs
  const refresh = async () => {
    const data = await api('/api/state')
    store.suites = data.suites
    store.invalid = data.invalid || []
    store.serverRunning = data.isRunning
    store.loaded = true
    render()
  }

  const settleRun = (runId) => {
    finishedRuns.add(runId)
    for (const w of runWaiters.get(runId) || []) w()
    runWaiters.delete(runId)
  }

  const waitForRun = (runId) =>
    new Promise((resolve) => {
      if (finishedRuns.has(runId)) return resolve()
      runWaiters.set(runId, [...(runWaiters.get(runId) || []), resolve])
      // Fallback when an event is missed (reconnects): poll the run.
      const poll = setInterval(async () => {
        if (finishedRuns.has(runId)) return clearInterval(poll)
        try {
          const { run } = await api(`/api/runs/${encodeURIComponent(runId)}`)
          if (run.status !== 'queued' && run.status !== 'running') {
            clearInterval(poll)
            settleRun(runId)
          }
        } catch {}
      }, 1500)
    })

  const startRun = async (body) => {
    store.inFlight++
    render()
    try {
      const { run } = await api('/api/runs', { method: 'POST', body: JSON.stringify(body) })
      notice('')
      await waitForRun(run.id)
      await refresh()
    } catch (error) {
      notice(error.message)
      throw error
    } finally {
      store.inFlight--
      render()
    }
  }

  const runAll = () => startRun({ all: true })
  const runSuite = (index) => startRun({ index })
  const runByName = (name) => {
    const idx = store.suites.findIndex((s) => s.name === name)
    if (idx >= 0) return runSuite(store.suites[idx].index)
    throw new Error(`Suite "${name}" not found`)
  }

  // ------------------------------------------------------------------------------------------------ events
  const bySuite = (index, name) => store.suites.find((s) => s.index === index && s.name === name)
  const connect = () => {
    const es = new EventSource(withToken('/api/events'))
    const on = (type, fn) =>
      es.addEventListener(type, (ev) => {
        try {
          fn(JSON.parse(ev.data))
          render()
        } catch {}
      })
    on('hello', () => {
      document.getElementById('connection').textContent = 'live'
      refresh().catch(() => undefined)
    })
    on('run-queued', (e) => {
      store.serverRunning = true
      for (const s of e.run.suites) {
        const st = bySuite(s.index, s.name)
        if (st) Object.assign(st, { status: 'planned', passed: false, steps: [], error: null })
      }
    })
    on('run-started', () => {
      store.serverRunning = true
    })
    on('suite-started', (e) => {
      const st = bySuite(e.suiteIndex, e.name)
      if (st) Object.assign(st, { status: 'running', passed: false, steps: [], error: null })
    })
    on('step-done', (e) => {
      const st = bySuite(e.suiteIndex, e.name)
      if (st) st.steps[e.stepIndex] = e.step
    })
    on('suite-finished', (e) => {
      const st = bySuite(e.suite.index, e.suite.name)
      if (st) Object.assign(st, { status: 'done', passed: e.suite.passed, steps: e.suite.steps, error: e.suite.error })
    })
    on('run-finished', (e) => {
      refresh()
        .catch(() => undefined)
        .finally(() => settleRun(e.run.id))
    })
    es.onerror = () => {
      document.getElementById('connection').textContent = 'reconnecting…'
    }
  }

  document.addEventListener('click', (ev) => {
    const target = ev.target instanceof Element ? ev.target.closest('[data-testbot-run], [data-testbot-run-all]') : null
    if (!target) return
    const p = target.hasAttribute('data-testbot-run-all')
      ? runAll()
      : runSuite(Number(target.getAttribute('data-testbot-run')))
    p.catch(() => undefined)
  })

  const api3 = {
    runAll,
    runSuite,
    runByName,
    getResults,
    isRunning,
    listSuites: () => store.suites.map((s) => s.name),
  }
  // Seed 004 §6: defined once the suites are known, so listSuites/runByName never see an empty list. The server puts
  // the suite list in the page, so that is before the page's load event; without it, after the first fetch.
  const ready = () => {
    window.__TESTBOT__ = api3
    document.body.dataset.testbotReady = 'true'
  }
  const initial = document.getElementById('qa-initial-state')
  let inPage = null
  try {
    inPage = initial ? JSON.parse(initial.textContent || 'null') : null
  } catch {}
  if (inPage && Array.isArray(inPage.suites)) {
    store.suites = inPage.suites
    store.invalid = inPage.invalid || []
    store.serverRunning = Boolean(inPage.isRunning)
    store.loaded = true
    render()
    ready()
    connect()
  } else
    refresh()
      .catch((error) => notice(`Could not load the suites: ${error.message}`))
      .finally(() => {
        ready()
        connect()
      })
})()
