// convcheck explore: the page's script (plain JavaScript, no framework, no
// build step). It keeps the page state in one object, asks the server's JSON
// API (docs/src/explorer.md) for CFGs, trace tables and checks, and links
// them: a table cell selects its operation's blocks in both CFG pictures, a
// block selects its instances in every table, and a counterexample is
// stepped through one reference column (convergence class) at a time.
//
// Everything the user typed reaches the DOM through textContent, never as
// HTML; the only markup inserted is the server's SVG, parsed as XML.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  // Builds an element: el('td', {class: 'x', tabindex: 0}, 'text', child).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // ---------------------------------------------------------------- state

  // The whole state of the page: what "Save state" downloads and what the
  // URL fragment holds.
  const state = {
    language: 'kernel',
    file: 'input.c',
    source: '',
    function: null,
    passes: ['simplifycfg'],
    tokens: false,
    after: null, // stage index of the "after" picture; null: the last
    scenario: { group: null, threads: null }, // threads null: default scenario
    check: { reference: 'source', max_iters: 3, threads: 2 },
  };

  let examples = [];
  let lowerAnswer = null; // the last good /api/lower answer
  let runAnswers = []; // [{title, answer | error}]
  let checkAnswer = null;
  let tools = null; // the server's tools under --allow-tools: {opt, opt_args, clang}
  let target = null; // a second file for two-file checks: {name, text}
  let steps = [];
  let stepIndex = 0;
  let selection = null; // {labels: Set, block: {pic, index} | null, cell}
  let diagnostics = [];
  let generation = 0;
  let refreshTimer = null;
  let hashTimer = null;

  function setStatus(text, error) {
    const s = $('status');
    s.textContent = text;
    s.classList.toggle('error', !!error);
  }

  // ------------------------------------------------------------------ API

  async function api(path, body) {
    const res = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try {
      data = await res.json();
    } catch (_) {
      data = { error: { kind: 'http', message: `HTTP ${res.status}` } };
    }
    if (!res.ok) {
      const e = new Error((data.error && data.error.message) || `HTTP ${res.status}`);
      e.api = data.error || {};
      e.status = res.status;
      throw e;
    }
    return data;
  }

  function baseRequest() {
    return {
      language: state.language,
      file: state.file,
      source: state.source,
      ...clangSent(),
    };
  }

  const isLlvm = () => state.language === 'llvm';
  // Sources the server's clang compiles (explore --allow-tools): the
  // language, its name and the extension clang reads it by.
  const CLANG = {
    cuda: { name: 'CUDA', ext: 'cu' },
    hip: { name: 'HIP', ext: 'hip' },
    opencl: { name: 'OpenCL C', ext: 'cl' },
    'clang-c': { name: 'C', ext: 'c' },
  };
  const isClang = () => Object.prototype.hasOwnProperty.call(CLANG, state.language);
  // LLVM IR and clang's output run at the CFG level only.
  const isIr = () => isLlvm() || isClang();
  const clangOf = (file) => ({ cu: 'cuda', hip: 'hip', cl: 'opencl' })[(/\.([^./\\]*)$/.exec(file) || [])[1]];
  const optPipeline = () => (tools && isIr() && !target ? $('opt-pipeline').value.trim() : '');
  // What a check states as `check --clang-arg --target --block-dim
  // --grid-dim --warp-size` do (explore --allow-tools, LLVM IR or clang).
  // clang's flags (`--clang-arg`, `--target`) for every request on a
  // clang source, so that its CFGs and runs are of the same compilation.
  function clangSent() {
    if (!(tools && isClang())) return {};
    const out = {};
    const words = $('clang-args').value.trim().split(/\s+/).filter((w) => w);
    if (words.length) out.clang_args = words;
    if ($('gpu-target').value) out.target = $('gpu-target').value;
    return out;
  }
  function launchSent() {
    if (!(tools && isIr())) return {};
    const out = {};
    for (const [id, field] of [['block-dim', 'block_dim'], ['grid-dim', 'grid_dim']]) {
      const v = $(id).value.trim();
      if (v) out[field] = v;
    }
    // A stated block is the group (as `check` without --threads).
    if (out.block_dim) out.threads = 0;
    const w = $('warp-size').value.trim();
    if (w) out.warp_size = Number(w);
    return out;
  }

  // What the requests send for the settings LLVM IR does not have: no
  // tokens placed by lowering, no source level. A clang source has a
  // source level, except for convcheck's own passes on clang's output.
  const tokensSent = () => (isIr() ? false : state.tokens);
  const referenceSent = () => (isLlvm() || (isClang() && !optPipeline() && state.passes.length) ? 'cfg' : state.check.reference);

  function entryName() {
    return state.function || (lowerAnswer && lowerAnswer.function) || null;
  }

  // --------------------------------------------------------------- editor

  function renderEditor() {
    const lines = state.source.split('\n');
    const byLine = new Map();
    for (const d of diagnostics) {
      if (!byLine.has(d.line)) byLine.set(d.line, []);
      byLine.get(d.line).push(d);
    }
    const selLines = selectedLines();
    const gutter = $('gutter');
    gutter.replaceChildren();
    const backdrop = $('backdrop');
    backdrop.replaceChildren();
    lines.forEach((text, i) => {
      const n = i + 1;
      const ds = byLine.get(n) || [];
      gutter.append(el('div', { class: ds.length ? 'err' : '' }, String(n)));
      const line = el('div', { class: 'line' + (ds.length ? ' has-err' : '') + (selLines.has(n) ? ' sel' : '') });
      if (ds.length) {
        // Mark from the first diagnostic's column to the end of its word.
        const col = Math.max(1, Math.min(ds[0].col, text.length + 1)) - 1;
        let end = col + 1;
        while (end < text.length && /[\w.]/.test(text[end]) && /[\w.]/.test(text[col])) end++;
        line.append(text.slice(0, col));
        line.append(el('mark', { class: 'err' }, text.slice(col, end) || ' '));
        line.append(text.slice(end));
        line.append(el('span', { class: 'msg' }, '← ' + ds.map((d) => `${d.line}:${d.col}: ${d.message}`).join('; ')));
      } else {
        line.append(text || '\u200b');
      }
      backdrop.append(line);
    });
    syncScroll();
  }

  function syncScroll() {
    const ta = $('source');
    $('backdrop').scrollTop = ta.scrollTop;
    $('backdrop').scrollLeft = ta.scrollLeft;
    $('gutter').scrollTop = ta.scrollTop;
  }

  function renderDiagnostics(other) {
    const list = $('diagnostics');
    list.replaceChildren();
    for (const d of diagnostics) {
      list.append(el('li', {}, el('button', {
        type: 'button',
        title: 'Go to this position',
        onclick: () => goTo(d.line, d.col),
      }, `${state.file}:${d.line}:${d.col}: ${d.message}`)));
    }
    if (other) list.append(el('li', { class: 'other' }, other));
  }

  function goTo(line, col) {
    const ta = $('source');
    const lines = state.source.split('\n');
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    offset += Math.max(0, col - 1);
    ta.focus();
    ta.setSelectionRange(offset, offset);
  }

  // The source lines of the selected operations.
  function selectedLines() {
    const out = new Set();
    if (!selection || !lowerAnswer) return out;
    for (const op of lowerAnswer.ops) {
      if (op.function !== lowerAnswer.function) continue;
      if (selection.labels.has(op.label) && op.line > 0) out.add(op.line);
    }
    return out;
  }

  // Scrolls the editor so that the first selected line shows (unless the
  // user is typing in it).
  function revealSelectedLine() {
    const ta = $('source');
    if (document.activeElement === ta) return;
    const lines = [...selectedLines()].sort((a, b) => a - b);
    if (!lines.length) return;
    const lineHeight = parseFloat(getComputedStyle(ta).lineHeight) || 20;
    const top = (lines[0] - 1) * lineHeight;
    if (top < ta.scrollTop || top > ta.scrollTop + ta.clientHeight - 2 * lineHeight) {
      ta.scrollTop = Math.max(0, top - ta.clientHeight / 3);
    }
    syncScroll();
  }

  // ------------------------------------------------------------- refresh

  function scheduleRefresh(delay = 350) {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(refresh, delay);
    scheduleHash();
  }

  async function refresh() {
    const gen = ++generation;
    document.body.dataset.ready = '';
    let answer;
    try {
      answer = await api('/api/lower', {
        ...baseRequest(),
        function: state.function,
        tokens: tokensSent(),
        passes: state.passes,
      });
    } catch (e) {
      if (gen !== generation) return;
      if (e.api && e.api.field === 'function' && state.function) {
        // The function is gone from the edited source: fall back to the
        // default one.
        state.function = null;
        return refresh();
      }
      diagnostics = (e.api && e.api.diagnostics) || [];
      document.body.dataset.ready = '';
      document.body.dataset.errors = String(diagnostics.length || 1);
      renderEditor();
      renderDiagnostics(diagnostics.length ? null : e.message);
      for (const id of ['cfg-before', 'cfg-after']) $(id).classList.add('stale');
      setStatus(diagnostics.length ? `The kernel does not parse (${diagnostics.length} error${diagnostics.length > 1 ? 's' : ''}).` : e.message, true);
      return;
    }
    if (gen !== generation) return;
    lowerAnswer = answer;
    diagnostics = [];
    document.body.dataset.errors = '0';
    if (answer.unsupported) {
      // A function of LLVM IR outside the model: no CFG, no tables; say
      // which construct kept it out, and where.
      const u = answer.unsupported;
      renderDiagnostics(el('button', {
        type: 'button',
        title: 'Go to this line',
        onclick: () => goTo(u.line || 1, 1),
      }, u.message));
      renderFunctions();
      for (const id of ['cfg-before', 'cfg-after']) $(id).replaceChildren(el('p', { class: 'error' }, u.message));
      $('after-stage').replaceChildren();
      $('pass-notes').replaceChildren();
      runAnswers = [];
      $('tables').replaceChildren(el('p', { class: 'error' }, u.message));
      renderEditor();
      setStatus(`${answer.file}: ${u.message}`, true);
      document.body.dataset.ready = answer.function;
      return;
    }
    renderDiagnostics(null);
    renderFunctions();
    renderStages();
    renderCfgs();
    renderEditor();
    const compiled = isClang() ? ` (${CLANG[state.language].name}, compiled by ${tools && tools.clang ? tools.clang : 'clang'})` : '';
    setStatus(`${answer.file}${compiled}: @${answer.function}, ${answer.stages.length - 1} pass${answer.stages.length === 2 ? '' : 'es'}.`);
    await runTables(gen);
  }

  function renderFunctions() {
    const sel = $('function');
    sel.replaceChildren();
    for (const f of lowerAnswer.functions) {
      const label = f.name + (f.name === lowerAnswer.default_function ? ' (kernel)' : '') + (f.unsupported ? ' (outside the model)' : '');
      sel.append(el('option', { value: f.name, selected: f.name === lowerAnswer.function }, label));
    }
    const hint = lowerAnswer.oracles.map((o) => `${o.name} (${o.class})`).join(', ');
    $('oracles-hint').textContent = hint ? `Oracles of this file: ${hint}. Values past a list are 0.` : 'This file reads no oracle.';
  }

  function afterIndex() {
    const n = lowerAnswer ? lowerAnswer.stages.length : 1;
    if (state.after === null || state.after >= n || state.after < 1) return n - 1;
    return state.after;
  }

  function renderStages() {
    const sel = $('after-stage');
    sel.replaceChildren();
    const stages = lowerAnswer.stages;
    if (stages.length === 1) {
      sel.append(el('option', { value: '0' }, `${stages[0].name} (no pass)`));
    }
    stages.forEach((s, i) => {
      if (i > 0) sel.append(el('option', { value: String(i), selected: i === afterIndex() }, `${i}: ${s.name}`));
    });
    const notes = $('pass-notes');
    notes.replaceChildren();
    for (let i = 1; i <= afterIndex(); i++) {
      for (const n of stages[i].notes) notes.append(el('li', {}, `${stages[i].name}: ${n}`));
    }
  }

  function stageOf(pic) {
    if (!lowerAnswer) return null;
    return lowerAnswer.stages[pic === 'before' ? 0 : afterIndex()];
  }

  function renderCfgs() {
    for (const pic of ['before', 'after']) {
      const stage = stageOf(pic);
      const box = $('cfg-' + pic);
      box.classList.remove('stale');
      box.replaceChildren();
      $(pic + '-name').textContent = stage.name;
      const doc = new DOMParser().parseFromString(stage.svg, 'image/svg+xml');
      const svg = doc.documentElement;
      if (svg.nodeName !== 'svg') {
        box.append(el('p', { class: 'error' }, 'The picture could not be drawn.'));
        continue;
      }
      const node = document.importNode(svg, true);
      node.setAttribute('role', 'group');
      node.setAttribute('aria-label', `CFG of @${lowerAnswer.function} ${pic === 'before' ? 'before the passes' : 'after ' + stage.name}`);
      for (const g of node.querySelectorAll('g.cc-block')) {
        const b = stage.blocks[Number(g.dataset.block)];
        if (!b) continue;
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        g.setAttribute('aria-label', `block ${b.name}` + (b.labels.length ? `: ${b.labels.join(', ')}` : ''));
        g.dataset.name = b.name;
        const pick = () => selectBlock(pic, b.index);
        g.addEventListener('click', pick);
        g.addEventListener('keydown', (ev) => {
          if (ev.key === 'Enter' || ev.key === ' ') {
            ev.preventDefault();
            pick();
          }
        });
      }
      box.append(node);
      applyZoom(pic);
    }
    applySelection();
  }

  // Zoom: null fits the picture to its pane (the default); a number is the
  // scale of the picture's own size, the pane scrolling around it.
  const zoom = { before: null, after: null };
  const ZOOM_STEPS = [0.25, 0.35, 0.5, 0.7, 1, 1.4, 2, 2.8, 4];

  function applyZoom(pic) {
    const box = $('cfg-' + pic);
    const svg = box.querySelector('svg');
    const z = zoom[pic];
    box.classList.toggle('zoomed', z !== null);
    $(pic + '-zoom').textContent = z === null ? 'fit' : `${Math.round(z * 100)}%`;
    if (!svg) return;
    const w = Number(svg.getAttribute('width')) || svg.viewBox.baseVal.width;
    if (z === null) svg.style.width = '';
    else svg.style.width = `${Math.round(w * z)}px`;
  }

  function zoomBy(pic, direction) {
    const box = $('cfg-' + pic);
    const svg = box.querySelector('svg');
    if (direction === 'fit' || !svg) {
      zoom[pic] = null;
    } else {
      const w = Number(svg.getAttribute('width')) || svg.viewBox.baseVal.width || 1;
      const now = zoom[pic] === null ? svg.getBoundingClientRect().width / w : zoom[pic];
      const up = ZOOM_STEPS.find((z) => z > now + 1e-6);
      const down = [...ZOOM_STEPS].reverse().find((z) => z < now - 1e-6);
      zoom[pic] = direction === 'in' ? (up || ZOOM_STEPS[ZOOM_STEPS.length - 1]) : (down || ZOOM_STEPS[0]);
    }
    applyZoom(pic);
  }

  function wireZoom() {
    for (const b of document.querySelectorAll('.zoom button')) {
      b.addEventListener('click', () => zoomBy(b.dataset.pic, b.dataset.zoom));
    }
    for (const pic of ['before', 'after']) {
      const box = $('cfg-' + pic);
      box.addEventListener('wheel', (ev) => {
        if (!ev.ctrlKey && !ev.metaKey) return;
        ev.preventDefault();
        zoomBy(pic, ev.deltaY < 0 ? 'in' : 'out');
      }, { passive: false });
      // Dragging a zoomed picture scrolls its pane (a click on a block
      // still selects it: a drag starts after a few pixels).
      let drag = null;
      box.addEventListener('pointerdown', (ev) => {
        if (zoom[pic] === null || ev.button !== 0) return;
        drag = { x: ev.clientX, y: ev.clientY, left: box.scrollLeft, top: box.scrollTop, moved: false };
      });
      box.addEventListener('pointermove', (ev) => {
        if (!drag) return;
        const dx = ev.clientX - drag.x;
        const dy = ev.clientY - drag.y;
        if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
        drag.moved = true;
        box.classList.add('dragging');
        box.scrollLeft = drag.left - dx;
        box.scrollTop = drag.top - dy;
      });
      const end = () => {
        drag = null;
        box.classList.remove('dragging');
      };
      box.addEventListener('pointerup', end);
      box.addEventListener('pointerleave', end);
    }
  }

  // ---------------------------------------------------------- trace tables

  // One colour per column (convergence class); neighbours differ in hue
  // and lightness.
  function colour(col) {
    const hue = (col * 67 + 200) % 360;
    return `hsl(${hue}, 70%, ${col % 2 ? 84 : 89}%)`;
  }

  // A trace table: {rows, table, instances, implementation_defined_columns}.
  function traceTable(t, kind) {
    const open = new Set(t.implementation_defined_columns || []);
    const width = t.table.length ? t.table[0].length : 0;
    const head = el('tr', {}, el('th', { scope: 'col' }, ''));
    for (let c = 0; c < width; c++) {
      head.append(el('th', { scope: 'col', style: `background:${colour(c)}`, dataset: { col: c } }, String(c + 1)));
    }
    const body = el('tbody');
    t.rows.forEach((row, r) => {
      const tr = el('tr', {}, el('th', { scope: 'row' }, row));
      for (let c = 0; c < width; c++) {
        const label = t.table[r][c];
        if (label === null) {
          tr.append(el('td', { dataset: { row: r, col: c } }));
          continue;
        }
        const inst = t.instances[r][c] + (open.has(c) ? '*' : '');
        const td = el('td', {
          class: 'inst',
          tabindex: 0,
          style: `background:${colour(c)}`,
          'aria-label': `${row}, column ${c + 1}: ${inst}`,
          dataset: { label, row: r, col: c, kind },
        }, inst);
        tr.append(td);
      }
      body.append(tr);
    });
    return el('table', { class: 'trace', dataset: { kind } }, el('thead', {}, head), body);
  }

  function onTableClick(ev) {
    const td = ev.target.closest('td.inst');
    if (td) selectCell(td);
  }

  // Enter or Space selects; arrow keys move between the cells of a table.
  function onTableKey(ev) {
    const td = ev.target.closest('td.inst');
    if (!td) return;
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      selectCell(td);
      return;
    }
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const m = moves[ev.key];
    if (!m) return;
    ev.preventDefault();
    const table = td.closest('table');
    const r = Number(td.dataset.row) + m[0];
    const c = Number(td.dataset.col);
    const cells = [...table.querySelectorAll(`td.inst[data-row="${r}"]`)];
    let next = null;
    if (m[1] > 0) next = cells.find((x) => Number(x.dataset.col) > c);
    else if (m[1] < 0) next = cells.reverse().find((x) => Number(x.dataset.col) < c);
    else {
      // Up or down: the cell of the same column, else the nearest one.
      let best = Infinity;
      for (const x of cells) {
        const d = Math.abs(Number(x.dataset.col) - c);
        if (d < best) { best = d; next = x; }
      }
    }
    if (next) next.focus();
  }

  function scenarioRequest() {
    const req = {};
    if (state.scenario.threads) {
      req.threads = state.scenario.threads.map((t) => ({
        tid: t.tid === '' || t.tid === null || t.tid === undefined ? undefined : Number(t.tid),
        values: t.values,
      }));
    }
    if (state.scenario.group) req.group = Number(state.scenario.group);
    return req;
  }

  async function runTables(gen) {
    const fn = entryName();
    const after = state.passes.length ? ` after ${state.passes.join(', ')}` : ' (lowered)';
    // LLVM IR has one level: its own CFG semantics (maximal convergence,
    // or the tokens it is written with).
    const kinds = isIr() ? [
      { title: `CFG level, maximal convergence or the IR's own tokens${state.passes.length ? after : (isClang() ? ' (clang -O0)' : ' (as read)')}`, level: 'cfg', tokens: false, passes: state.passes },
    ] : [
      { title: 'Source level (seed 000)', level: 'source', tokens: false, passes: [] },
      { title: `CFG level, maximal convergence${after}`, level: 'cfg', tokens: false, passes: state.passes },
      { title: `CFG level with tokens${after}`, level: 'cfg', tokens: true, passes: state.passes },
    ];
    const results = await Promise.allSettled(kinds.map((k) => api('/api/run', {
      ...baseRequest(),
      function: fn,
      level: k.level,
      tokens: k.tokens,
      passes: k.passes,
      ...scenarioRequest(),
    })));
    if (gen !== generation) return;
    runAnswers = kinds.map((k, i) => ({
      title: k.title,
      kind: k.level + (k.tokens ? '-tokens' : ''),
      answer: results[i].status === 'fulfilled' ? results[i].value : null,
      error: results[i].status === 'rejected' ? results[i].reason.message : null,
    }));
    renderScenario();
    renderTables();
    // For tests and scripts: the page shows this function's tables.
    document.body.dataset.ready = fn || '';
  }

  function renderTables() {
    const box = $('tables');
    box.replaceChildren();
    for (const r of runAnswers) {
      const block = el('div', { class: 'table-block' }, el('h3', {}, r.title));
      if (r.error) {
        block.append(el('p', { class: 'error' }, r.error));
      } else {
        const a = r.answer;
        block.append(el('div', { class: 'scroll-x' }, traceTable(a, r.kind)));
        if (a.implementation_defined_columns.length) {
          block.append(el('p', { class: 'sub' }, '* implementation-defined convergence: the instance may or may not be converged with others; the table shows it apart.'));
        }
        const h = a.hazards;
        const hz = (h.race_free && h.divergence_free) ? 'no race, no barrier divergence'
          : `${h.races.length} race(s), ${h.barrier_divergence.length} barrier divergence(s)`;
        block.append(el('p', { class: 'sub' }, `hazards: ${hz}` + (a.cycle_hierarchy ? `\n${a.cycle_hierarchy}` : '')));
      }
      box.append(block);
    }
    applySelection();
  }

  // ------------------------------------------------------------- scenario

  function valuesText(values) {
    return Object.entries(values || {}).map(([k, v]) => `${k}=${v.join(',')}`).join(' ');
  }

  // In default mode the rows show what the default scenario's threads read
  // (from the source-level run); editing a row makes the scenario explicit.
  function renderScenario() {
    const body = $('scenario').querySelector('tbody');
    body.replaceChildren();
    const explicit = state.scenario.threads;
    let rows = explicit;
    if (!rows) {
      const src = runAnswers[0] && runAnswers[0].answer;
      rows = src ? src.threads.map((t) => ({ tid: t.tid, values: valuesText(t.values) })) : [];
    }
    $('scenario').classList.toggle('default', !explicit);
    $('scenario-mode').textContent = explicit ? 'your scenario' : 'default scenario (edit a row to change it)';
    const group = runAnswers[0] && runAnswers[0].answer ? runAnswers[0].answer.group : null;
    $('group').value = state.scenario.group || '';
    $('group').placeholder = group ? String(group) : '';
    rows.forEach((t, i) => {
      const tid = el('input', {
        class: 'tid', type: 'number', min: 0, value: t.tid ?? '', 'aria-label': `thread ${i + 1} tid`,
        oninput: () => editRow(i, 'tid', tid.value),
      });
      const values = el('input', {
        class: 'values', value: t.values || '', 'aria-label': `thread ${i + 1} oracle values`,
        oninput: () => editRow(i, 'values', values.value),
      });
      const remove = el('button', {
        type: 'button', 'aria-label': `remove thread ${i + 1}`, disabled: rows.length < 2,
        onclick: () => removeRow(i),
      }, '✕');
      body.append(el('tr', {}, el('td', {}, tid), el('td', {}, values), el('td', {}, remove)));
    });
  }

  function currentRows() {
    return [...$('scenario').querySelectorAll('tbody tr')].map((tr) => {
      const [tid, values] = tr.querySelectorAll('input');
      return { tid: tid.value === '' ? null : Number(tid.value), values: values.value };
    });
  }

  function editRow(i, field, value) {
    const rows = state.scenario.threads || currentRows();
    rows[i][field] = field === 'tid' ? (value === '' ? null : Number(value)) : value;
    state.scenario.threads = rows;
    $('scenario').classList.remove('default');
    $('scenario-mode').textContent = 'your scenario';
    scheduleRuns();
  }

  function removeRow(i) {
    const rows = state.scenario.threads || currentRows();
    rows.splice(i, 1);
    state.scenario.threads = rows;
    renderScenario();
    scheduleRuns();
  }

  let runTimer = null;
  function scheduleRuns() {
    clearTimeout(runTimer);
    scheduleHash();
    runTimer = setTimeout(() => {
      if (lowerAnswer && !lowerAnswer.unsupported && !diagnostics.length) runTables(++generation);
    }, 350);
  }

  // ----------------------------------------------------------- selection

  function selectCell(td) {
    const label = td.dataset.label;
    selection = { labels: new Set([label]), block: null, cell: td };
    applySelection();
    setStatus(`${td.textContent} (operation ${label}) is in block ${blocksOf(label)}.`);
  }

  // Where the blocks of an operation are, in both pictures, as text.
  function blocksOf(label) {
    return ['before', 'after'].map((pic) => {
      const st = stageOf(pic);
      const names = st ? st.blocks.filter((b) => b.labels.includes(label)).map((b) => b.name) : [];
      return `${names.length ? names.join(', ') : 'no block'} (${pic}: ${st ? st.name : '?'})`;
    }).join(' and ');
  }

  function selectBlock(pic, index) {
    const st = stageOf(pic);
    const b = st.blocks[index];
    selection = { labels: new Set(b.labels), block: { pic, index }, cell: null };
    applySelection();
    const n = document.querySelectorAll('table.trace td.hl').length;
    setStatus(b.labels.length
      ? `Block ${b.name} (${pic}: ${st.name}) performs ${b.labels.join(', ')}: ${n} instance${n === 1 ? '' : 's'} highlighted.`
      : `Block ${b.name} (${pic}: ${st.name}) performs no convergent operation.`);
  }

  function applySelection() {
    const labels = selection ? selection.labels : new Set();
    for (const td of document.querySelectorAll('table.trace td.inst')) {
      td.classList.toggle('hl', labels.has(td.dataset.label));
      td.classList.toggle('selected', !!selection && selection.cell === td);
    }
    for (const pic of ['before', 'after']) {
      const st = stageOf(pic);
      if (!st) continue;
      for (const g of $('cfg-' + pic).querySelectorAll('g.cc-block')) {
        const i = Number(g.dataset.block);
        const b = st.blocks[i];
        const own = !!selection && selection.block && selection.block.pic === pic && selection.block.index === i;
        g.classList.toggle('hl', own || (!!b && b.labels.some((l) => labels.has(l))));
      }
    }
    renderEditor();
    revealSelectedLine();
  }

  function clearSelection() {
    selection = null;
    applySelection();
  }

  // ---------------------------------------------------------------- check

  async function runCheck() {
    const button = $('check-button');
    button.disabled = true;
    button.textContent = 'Checking…';
    const v = $('verdict');
    v.replaceChildren(el('span', { class: 'badge running' }, 'running'), ` checking @${entryName()}…`);
    $('stages').replaceChildren();
    $('counterexample').replaceChildren();
    const started = performance.now();
    try {
      const opt = optPipeline();
      checkAnswer = await api('/api/check', {
        ...baseRequest(),
        function: entryName(),
        passes: target || opt ? [] : state.passes,
        ...(opt ? { opt } : {}),
        ...(target ? { target_source: target.text, target_file: target.name } : {}),
        reference: referenceSent(),
        tokens: tokensSent(),
        max_iters: Number(state.check.max_iters),
        threads: Number(state.check.threads),
        ...launchSent(),
      });
      renderCheck((performance.now() - started) / 1000);
    } catch (e) {
      checkAnswer = null;
      v.replaceChildren(el('span', { class: 'badge inconclusive' }, 'error'), ' ' + e.message);
    } finally {
      button.disabled = false;
      button.textContent = 'Check';
    }
  }

  // Whether a stage compared anything: a proof or a counterexample did, a
  // `preserved` only when it examined at least one scenario.
  function examined(s) {
    return s.verdict === 'proved' || s.verdict === 'violated' || (s.verdict === 'preserved' && s.scenarios > 0);
  }

  function renderCheck(seconds, from) {
    const a = checkAnswer;
    const broken = a.stages.findIndex((s) => s.verdict !== 'preserved' && s.verdict !== 'proved');
    const v = $('verdict');
    // A verdict that holds only because nothing was compared is never shown
    // green: "nothing examined", grey.
    const empty = (a.verdict === 'preserved' || a.verdict === 'proved') && !a.stages.some(examined);
    const word = empty ? 'nothing examined' : a.verdict;
    v.replaceChildren(
      el('span', { class: `badge ${empty ? 'nothing' : a.verdict}`, id: 'verdict-word' }, word),
      from ? ` (report ${from}, ${a.file || ''}${a.target_file ? ' → ' + a.target_file : ''})` : '',
      ` @${a.function}, reference: ${a.reference === 'source' ? 'source level' : (isLlvm() ? 'the LLVM IR\'s own CFG' : (isClang() ? 'clang\'s CFG' : 'lowered CFG'))}, threads: ${a.threads}, ` +
      `max_iters ${a.bounds.max_iters}` +
      (broken >= 0 ? `; first at stage ${broken + 1}: ${a.stages[broken].name}` : '') +
      (seconds === null ? '' : ` (${seconds.toFixed(1)} s)`) +
      (empty ? '; no stage compared any scenario, so this is no evidence either way' : ''),
    );
    const list = $('stages');
    list.replaceChildren();
    for (const s of a.stages) {
      const detail = s.verdict === 'preserved'
        ? ` (${s.scenarios} scenarios; ${s.cut_paths} paths outside the bounds)` + (s.scenarios > 0 ? '' : ': nothing examined')
        : s.verdict === 'inconclusive' ? `: ${s.reason}` : '';
      list.append(el('li', {}, `${s.name}: `, el('span', { class: `v-${s.verdict}` }, s.verdict), detail));
    }
    renderCounterexample();
  }

  function renderCounterexample() {
    const box = $('counterexample');
    box.replaceChildren();
    const cx = checkAnswer && checkAnswer.counterexample;
    steps = [];
    if (!cx) return;
    const op = cx.operation ? ` at ${cx.operation.label} (line ${cx.operation.line})` : '';
    box.append(el('h3', {}, `Counterexample (stage ${cx.stage})`));
    box.append(el('p', { class: 'cx-message' }, `${cx.property}${op}: ${cx.message}`));
    const scen = el('p', {}, 'Scenario: ');
    for (const t of cx.threads) scen.append(el('span', { class: 'group-chip' }, `tid ${t.tid}: ${valuesText(t.values) || '(no value read)'}`));
    scen.append(' ', el('button', { type: 'button', id: 'load-cx', onclick: loadCounterexampleScenario }, 'Load into the scenario editor'));
    box.append(scen);
    if (cx.reference_table && cx.reference_table.table && cx.target_table) {
      const reference = checkAnswer.reference === 'source' ? 'source level' : (isLlvm() ? 'the LLVM IR\'s own CFG' : (isClang() ? 'clang\'s CFG' : 'lowered CFG'));
      box.append(el('div', { class: 'cx-pair' },
        el('div', { class: 'table-block' }, el('h4', {}, `reference (${reference})`), el('div', { class: 'scroll-x' }, traceTable(cx.reference_table, 'cx-reference'))),
        el('div', { class: 'table-block' }, el('h4', {}, `target (after ${cx.stage})`), el('div', { class: 'scroll-x' }, traceTable(cx.target_table, 'cx-target')))));
      steps = buildSteps(cx.reference_table, cx.target_table);
      const first = steps.findIndex((s) => s.differs);
      stepIndex = first >= 0 ? first : 0;
      box.append(el('div', { class: 'stepper', role: 'group', 'aria-label': 'step through the counterexample' },
        el('button', { type: 'button', id: 'step-prev', onclick: () => goStep(stepIndex - 1), 'aria-label': 'previous step' }, '◀ Prev'),
        el('button', { type: 'button', id: 'step-next', onclick: () => goStep(stepIndex + 1), 'aria-label': 'next step' }, 'Next ▶'),
        el('button', { type: 'button', onclick: () => goStep(Math.max(0, steps.findIndex((s) => s.differs))) }, 'First difference'),
        el('span', { class: 'hint' }, '(or ← and → here)')));
      box.append(el('p', { id: 'step-text', class: 'step-text', 'aria-live': 'polite' }));
    } else if (cx.reference_table && cx.reference_table.error) {
      box.append(el('p', { class: 'error' }, `tables unavailable: ${cx.reference_table.error}`));
    }
    if (cx.replay) box.append(el('p', {}, 'Replay on the command line:'), el('div', { class: 'replay' }, cx.replay));
    else box.append(el('p', { class: 'hint' }, 'No replay line: convcheck run reads the kernel language, not LLVM IR.'));
    if (steps.length) goStep(stepIndex);
  }

  // One step per column (convergence class) of the reference table: its
  // instances, matched in the target by (thread, label, occurrence) as the
  // checker matches them, and how the target groups those threads.
  function buildSteps(ref, tgt) {
    const key = (r, label, k) => `${r}\u0000${label}\u0000${k}`;
    const where = new Map();
    const width = (t) => (t.table.length ? t.table[0].length : 0);
    tgt.table.forEach((row, r) => {
      const seen = {};
      for (let c = 0; c < width(tgt); c++) {
        const l = row[c];
        if (l === null) continue;
        seen[l] = (seen[l] || 0) + 1;
        where.set(key(r, l, seen[l]), c);
      }
    });
    const seenRef = ref.table.map(() => ({}));
    const out = [];
    for (let c = 0; c < width(ref); c++) {
      const members = [];
      ref.table.forEach((row, r) => {
        const l = row[c];
        if (l === null) return;
        seenRef[r][l] = (seenRef[r][l] || 0) + 1;
        members.push({ r, label: l, inst: ref.instances[r][c], tcol: where.get(key(r, l, seenRef[r][l])) });
      });
      const groups = new Map();
      for (const m of members) {
        const g = m.tcol === undefined ? 'missing' : m.tcol;
        if (!groups.has(g)) groups.set(g, []);
        groups.get(g).push(m);
      }
      let differs = groups.size > 1 || groups.has('missing');
      for (const [g, ms] of groups) {
        if (g === 'missing') continue;
        const inTarget = tgt.table.filter((row) => row[g] !== null).length;
        if (inTarget !== ms.length) differs = true;
      }
      out.push({ col: c, label: members.length ? members[0].label : '?', members, groups, differs });
    }
    return out;
  }

  function goStep(i) {
    if (!steps.length) return;
    stepIndex = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[stepIndex];
    const cx = checkAnswer.counterexample;
    const rows = cx.reference_table.rows;
    for (const td of $('counterexample').querySelectorAll('td.step')) td.classList.remove('step', 'bad');
    for (const th of $('counterexample').querySelectorAll('th.step')) th.classList.remove('step');
    const refTable = $('counterexample').querySelector('table[data-kind="cx-reference"]');
    const tgtTable = $('counterexample').querySelector('table[data-kind="cx-target"]');
    for (const m of s.members) {
      const a = refTable.querySelector(`td[data-row="${m.r}"][data-col="${s.col}"]`);
      if (a) a.classList.add('step');
      if (s.differs && a) a.classList.add('bad');
      if (m.tcol !== undefined) {
        const b = tgtTable.querySelector(`td[data-row="${m.r}"][data-col="${m.tcol}"]`);
        if (b) b.classList.add('step');
        if (s.differs && b) b.classList.add('bad');
      }
    }
    const th = refTable.querySelector(`thead th[data-col="${s.col}"]`);
    if (th) th.classList.add('step');
    const names = (ms) => ms.map((m) => rows[m.r]).join(' + ');
    const text = $('step-text');
    text.classList.toggle('bad', s.differs);
    text.replaceChildren(`Step ${stepIndex + 1} of ${steps.length}: ${s.label}. Reference: `,
      el('span', { class: 'group-chip' }, names(s.members)),
      s.members.length > 1 ? ' together' : ' alone',
      '. Target: ');
    const parts = [];
    for (const [g, ms] of s.groups) {
      const inTarget = g === 'missing' ? ms.length : tgtTable.querySelectorAll(`td.inst[data-col="${g}"]`).length;
      const extra = inTarget > ms.length ? ` with ${inTarget - ms.length} more` : '';
      parts.push(el('span', { class: 'group-chip' }, (g === 'missing' ? 'no match: ' : '') + names(ms) + extra));
    }
    parts.forEach((p, k) => {
      if (k) text.append(' apart from ');
      text.append(p);
    });
    text.append(s.differs ? ' — the target does not group these threads as the reference does.' : ' — same grouping.');
    // Show the step's blocks in both CFG pictures.
    selection = { labels: new Set([s.label]), block: null, cell: null };
    applySelection();
    setStatus(`Counterexample step ${stepIndex + 1}: ${s.label} is in block ${blocksOf(s.label)}.`);
  }

  function loadCounterexampleScenario() {
    const cx = checkAnswer.counterexample;
    state.scenario.threads = cx.threads.map((t) => ({ tid: t.tid, values: valuesText(t.values) }));
    state.scenario.group = checkAnswer.threads;
    renderScenario();
    scheduleRuns();
    setStatus('The counterexample\'s scenario is in the scenario editor; the trace tables follow it.');
  }

  // -------------------------------------------------------------- sharing

  function snapshot() {
    return {
      convcheck_explore: 1,
      language: state.language,
      file: state.file,
      source: state.source,
      function: state.function,
      passes: state.passes,
      tokens: state.tokens,
      after: state.after,
      scenario: state.scenario,
      check: state.check,
    };
  }

  function applySnapshot(s) {
    if (!s || typeof s !== 'object' || typeof s.source !== 'string') {
      throw new Error('not a convcheck explore state (no "source")');
    }
    state.language = s.language === 'llvm' || Object.prototype.hasOwnProperty.call(CLANG, s.language) ? s.language : 'kernel';
    state.file = typeof s.file === 'string' ? s.file : 'input.c';
    state.source = s.source;
    state.function = typeof s.function === 'string' ? s.function : null;
    state.passes = Array.isArray(s.passes) ? s.passes.map(String) : [];
    state.tokens = !!s.tokens;
    state.after = Number.isInteger(s.after) ? s.after : null;
    const sc = s.scenario || {};
    state.scenario = {
      group: Number.isInteger(sc.group) ? sc.group : null,
      threads: Array.isArray(sc.threads)
        ? sc.threads.map((t) => ({ tid: Number.isInteger(t.tid) ? t.tid : null, values: typeof t.values === 'string' ? t.values : valuesText(t.values) }))
        : null,
    };
    const ck = s.check || {};
    state.check = {
      reference: ck.reference === 'cfg' ? 'cfg' : 'source',
      max_iters: Number.isInteger(ck.max_iters) ? ck.max_iters : 3,
      threads: Number.isInteger(ck.threads) ? ck.threads : 2,
    };
    syncControls();
    lowerAnswer = null;
    checkAnswer = null;
    $('verdict').textContent = 'No check run yet.';
    $('stages').replaceChildren();
    $('counterexample').replaceChildren();
    selection = null;
    refresh();
  }

  function syncControls() {
    $('source').value = state.source;
    $('file-name').textContent = state.file;
    $('language').value = state.language;
    $('passes').value = state.passes.join(', ');
    $('tokens').checked = tokensSent();
    $('tokens').disabled = isIr();
    $('tokens').title = isIr() ? 'LLVM IR has the tokens it is written with' : '';
    $('reference').querySelector('option[value="source"]').disabled = isLlvm();
    $('reference').value = referenceSent();
    $('reference').title = isLlvm() ? 'LLVM IR has no source level: its reference is its own CFG' : '';
    $('max-iters').value = state.check.max_iters;
    $('check-threads').value = state.check.threads;
    $('group').value = state.scenario.group || '';
    syncTools();
    renderEditor();
  }

  function toBase64Url(text) {
    const bytes = new TextEncoder().encode(text);
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function fromBase64Url(text) {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  }

  function stateUrl() {
    return `${location.origin}${location.pathname}#state=${toBase64Url(JSON.stringify(snapshot()))}`;
  }

  let lastHash = '';
  function scheduleHash() {
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      const url = stateUrl();
      lastHash = new URL(url).hash;
      history.replaceState(null, '', url);
    }, 300);
  }

  function loadFromHash() {
    const h = location.hash;
    if (!h.startsWith('#state=')) return false;
    try {
      applySnapshot(JSON.parse(fromBase64Url(h.slice(7))));
      setStatus('State loaded from the link.');
      return true;
    } catch (e) {
      setStatus(`The link's state could not be read: ${e.message}`, true);
      return false;
    }
  }

  function download(name, text) {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = el('a', { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function readFile(input, then) {
    const f = input.files && input.files[0];
    if (!f) return;
    f.text().then((text) => then(f.name, text)).catch((e) => setStatus(`${f.name}: ${e.message}`, true));
    input.value = '';
  }

  // A JSON report of `convcheck check --format json` (the answer of
  // /api/check has the same shape): shown as if the page had run it, its
  // counterexample stepped through. The CFG pictures are the editor's: the
  // report names its file, so the user can open that kernel to see them.
  function loadReport(name, text) {
    let r;
    try {
      r = JSON.parse(text);
    } catch (e) {
      setStatus(`${name}: not JSON: ${e.message}`, true);
      return;
    }
    if (!r || typeof r !== 'object' || !Array.isArray(r.stages) || typeof r.verdict !== 'string') {
      const why = r && r.error ? `the report is an error: ${r.error}` : 'expected the JSON report of one function (convcheck check --format json --function F)';
      setStatus(`${name}: ${why}`, true);
      return;
    }
    checkAnswer = r;
    renderCheck(null, name);
    const same = r.file && state.file && r.file.replace(/^.*[\\/]/, '') === state.file.replace(/^.*[\\/]/, '');
    setStatus(`Report ${name} loaded (@${r.function})` + (same ? '.' : `; its kernel is ${r.file}: open it to see the CFGs of the steps.`));
  }

  // The server's tools (explore --allow-tools) and the target file.
  function syncTools() {
    $('opt-row').hidden = !(tools && isIr());
    $('launch-row').hidden = !(tools && isIr());
    $('clang-row').hidden = !isClang();
    $('gpu-target-row').hidden = !isClang();
    $('tools-note').textContent = tools
      ? `tools allowed: ${tools.opt}${tools.opt_args.length ? ' ' + tools.opt_args.join(' ') : ''}${tools.clang ? ', ' + tools.clang : ''}`
      : (isIr() ? 'opt pipelines and clang: start the explorer with --allow-tools' : '');
    for (const lang of Object.keys(CLANG)) {
      const o = $('language').querySelector(`option[value="${lang}"]`);
      if (o) {
        o.disabled = !(tools && tools.clang) && state.language !== lang;
        o.title = o.disabled ? 'compiled by clang: start the explorer with --allow-tools (and clang-19 installed)' : '';
      }
    }
    const chip = $('target-chip');
    if (target) {
      chip.replaceChildren(`target: ${target.name} `,
        el('button', { type: 'button', id: 'clear-target', onclick: () => { target = null; syncTools(); } }, 'clear'));
    } else {
      chip.textContent = 'no target file: Check runs the pipeline above';
    }
  }

  function loadTarget(name, text) {
    target = { name, text };
    syncTools();
    setStatus(`Target ${name} loaded: Check compares ${state.file} with it.`);
  }

  function loadKernel(name, text, language) {
    state.file = name;
    state.source = text;
    // A .cu, .hip or .cl file is compiled by the server's clang when it
    // has one; else the kernel language reads it (as `check` without
    // --frontend does).
    const viaClang = clangOf(name) && tools && tools.clang ? clangOf(name) : null;
    state.language = language || (/\.ll$/i.test(name) ? 'llvm' : (viaClang || 'kernel'));
    state.function = null;
    state.after = null;
    state.scenario = { group: null, threads: null };
    selection = null;
    syncControls();
    scheduleRefresh(0);
    sayCompiler(name);
  }

  // The status line says who reads a source clang could compile.
  function sayCompiler(name) {
    if (isClang()) setStatus(`${name}: ${CLANG[state.language].name}, compiled by ${tools && tools.clang ? tools.clang : 'clang'} (clang -O0 with convcheck's flags, as check --frontend clang)`);
    else if (clangOf(name)) setStatus(`${name}: read as the kernel language; to compile it with clang, start the explorer with --allow-tools`);
  }

  // ---------------------------------------------------------------- wiring

  function parsePasses(text) {
    return text.split(/[\s,]+/).map((p) => p.trim()).filter(Boolean);
  }

  function wire() {
    const ta = $('source');
    ta.addEventListener('input', () => {
      state.source = ta.value;
      renderEditor();
      scheduleRefresh();
    });
    ta.addEventListener('scroll', syncScroll);
    $('language').addEventListener('change', (e) => {
      state.language = e.target.value;
      // The file name follows the language (it names the input in
      // messages and reports).
      const base = state.file.replace(/\.[^./\\]*$/, '') || 'input';
      if (isLlvm() && !/\.ll$/i.test(state.file)) state.file = `${base}.ll`;
      if (isClang()) state.file = `${base}.${CLANG[state.language].ext}`;
      else if (!isLlvm() && /\.ll$/i.test(state.file)) state.file = `${base}.c`;
      state.function = null;
      state.after = null;
      state.scenario = { group: null, threads: null };
      selection = null;
      syncControls();
      scheduleRefresh(0);
      sayCompiler(state.file);
    });
    $('function').addEventListener('change', (e) => {
      state.function = e.target.value;
      state.scenario = { group: state.scenario.group, threads: null };
      selection = null;
      scheduleRefresh(0);
    });
    // clang's flags change the compilation: CFGs and runs again.
    $('clang-args').addEventListener('input', () => scheduleRefresh(500));
    $('gpu-target').addEventListener('change', () => scheduleRefresh());
    $('passes').addEventListener('input', (e) => {
      state.passes = parsePasses(e.target.value);
      state.after = null;
      scheduleRefresh(500);
    });
    $('add-pass').addEventListener('change', (e) => {
      if (!e.target.value) return;
      state.passes.push(e.target.value);
      state.after = null;
      $('passes').value = state.passes.join(', ');
      e.target.value = '';
      scheduleRefresh(0);
    });
    $('tokens').addEventListener('change', (e) => {
      state.tokens = e.target.checked;
      scheduleRefresh(0);
    });
    $('after-stage').addEventListener('change', (e) => {
      state.after = Number(e.target.value) || null;
      renderStages();
      renderCfgs();
      scheduleHash();
    });
    $('group').addEventListener('input', (e) => {
      state.scenario.group = e.target.value === '' ? null : Number(e.target.value);
      scheduleRuns();
    });
    $('add-thread').addEventListener('click', () => {
      const rows = state.scenario.threads || currentRows();
      const used = new Set(rows.map((r) => r.tid));
      let t = 0;
      while (used.has(t)) t++;
      rows.push({ tid: t, values: '' });
      state.scenario.threads = rows;
      renderScenario();
      scheduleRuns();
    });
    $('default-scenario').addEventListener('click', () => {
      state.scenario = { group: null, threads: null };
      scheduleRuns();
    });
    $('reference').addEventListener('change', (e) => { state.check.reference = e.target.value; scheduleHash(); });
    $('max-iters').addEventListener('input', (e) => { state.check.max_iters = Number(e.target.value); scheduleHash(); });
    $('check-threads').addEventListener('input', (e) => { state.check.threads = Number(e.target.value); scheduleHash(); });
    $('check-button').addEventListener('click', runCheck);
    $('tables').addEventListener('click', onTableClick);
    $('tables').addEventListener('keydown', onTableKey);
    $('counterexample').addEventListener('click', onTableClick);
    $('counterexample').addEventListener('keydown', (ev) => {
      if (ev.target.closest('td.inst')) return onTableKey(ev);
      if (ev.target.matches('input, select, textarea')) return;
      if (ev.key === 'ArrowLeft') { ev.preventDefault(); goStep(stepIndex - 1); }
      if (ev.key === 'ArrowRight') { ev.preventDefault(); goStep(stepIndex + 1); }
    });
    document.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && selection) clearSelection();
    });
    $('open-kernel').addEventListener('change', (e) => readFile(e.target, loadKernel));
    $('open-report').addEventListener('change', (e) => readFile(e.target, loadReport));
    $('open-target').addEventListener('change', (e) => readFile(e.target, loadTarget));
    wireZoom();
    $('load-state').addEventListener('change', (e) => readFile(e.target, (name, text) => {
      try {
        applySnapshot(JSON.parse(text));
        setStatus(`State loaded from ${name}.`);
      } catch (err) {
        setStatus(`${name}: ${err.message}`, true);
      }
    }));
    $('save-state').addEventListener('click', () => {
      const base = state.file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'kernel';
      download(`${base}.explore.json`, JSON.stringify(snapshot(), null, 2) + '\n');
      setStatus('State saved; "Load state…" reads it back.');
    });
    $('copy-link').addEventListener('click', async () => {
      const url = stateUrl();
      history.replaceState(null, '', url);
      try {
        await navigator.clipboard.writeText(url);
        setStatus('Link copied: it holds the whole state in its fragment (after #), which never leaves the browser.');
      } catch (_) {
        setStatus('The address bar now holds the whole state; copy it from there.');
      }
    });
    $('examples').addEventListener('change', (e) => {
      const ex = examples.find((x) => x.file === e.target.value);
      if (ex) loadKernel(ex.file, ex.source, ex.language);
      e.target.value = '';
    });
    window.addEventListener('hashchange', () => {
      if (location.hash !== lastHash) loadFromHash();
    });
  }

  async function start() {
    wire();
    try {
      const [initial, passes] = await Promise.all([api('/api/initial'), api('/api/passes')]);
      examples = initial.examples;
      tools = initial.tools || null;
      syncTools();
      for (const ex of examples) $('examples').append(el('option', { value: ex.file }, ex.file + (ex.language === 'llvm' ? ' (LLVM IR)' : (CLANG[ex.language] ? ` (${CLANG[ex.language].name}, clang)` : ''))));
      for (const p of passes) {
        $('add-pass').append(el('option', { value: p.name, title: p.summary }, `${p.name}${p.safe ? '' : ' (unsafe)'}`));
      }
      if (!loadFromHash()) {
        state.file = initial.file;
        state.source = initial.source;
        state.language = initial.language;
        syncControls();
        refresh();
      }
    } catch (e) {
      setStatus(`The explorer's server did not answer: ${e.message}`, true);
    }
  }

  document.addEventListener('DOMContentLoaded', start);
})();
