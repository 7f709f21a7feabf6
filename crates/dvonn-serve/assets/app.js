// The page of `dvonn serve`: draws the game the server sends (its board is
// the SVG of `dvonn render`), turns clicks into moves, asks for the
// engine's moves without blocking, streams the analysis and the review of
// the game, and steps, imports and exports games. All state lives on the
// server; the page keeps the last view and the last review it was sent.
'use strict';

const $ = (id) => document.getElementById(id);

/** The last view of the game from the server. */
let game = null;
/** The stack chosen to move, waiting for its target. */
let selected = null;
/** The request of the engine's move in flight. */
let engine = null;
/** The analysis stream being read. */
let analysis = null;
/** The review stream being read. */
let reviewing = null;
/** The game's review: `{ game, doc, plies }`, the server's last review
 * (`doc`) or, while one runs, the plies judged so far (`doc` null);
 * `plies[n]` is the review of ply n's move. */
let review = null;
/** The game whose review is being fetched. */
let loadingReview = null;
/** Whether a request other than a search is in flight. */
let pending = false;

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the API; resolves to the JSON answer, rejects with an ApiError. */
async function api(method, path, body, signal) {
  const options = { method, signal, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.error || response.statusText);
  return data;
}

function say(text) {
  $('message').textContent = text || '';
}

function report(error) {
  if (error.name !== 'AbortError') say(error.message);
}

/** Runs a request that is not a search, one at a time. */
async function request(work) {
  if (pending) return;
  pending = true;
  updateBusy();
  try {
    await work();
  } catch (error) {
    report(error);
  } finally {
    pending = false;
    updateBusy();
    render();
  }
}

function gamePath(suffix = '') {
  return `/api/games/${game.id}${suffix}`;
}

const capitalized = (name) => name.charAt(0).toUpperCase() + name.slice(1);

/** `1 move`, `2 moves`. */
const plural = (count, one, many) => `${count} ${count === 1 ? one : many}`;

/** Whether the person may move on the board shown. */
function canPlay() {
  return game && !pending && !engine && game.turn === 'you' && game.legal.length > 0;
}

/** Shows a view of the game from the server. */
function show(view) {
  const samePosition = game && game.id === view.id && game.position === view.position && game.ply === view.ply;
  if (!samePosition) stopAnalysis(false);
  game = view;
  selected = null;
  sessionStorage.setItem('dvonn-game', view.id);
  $('board').innerHTML = view.svg;
  const svg = $('board').querySelector('svg');
  if (svg) {
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('role', 'img');
  }
  say('');
  if (review && (review.game !== view.id || (!view.reviewed && !reviewing))) clearReview();
  if (view.reviewed && !reviewing && !(review && review.doc)) loadReview();
  render();
  if (view.turn === 'engine' && view.ply === view.plies && !engine) engineMove();
}

/** Draws everything but the board itself from the current view. */
function render() {
  if (!game) return;
  markBoard();
  const { white, black } = game.score;
  $('score').textContent = `White ${white} · Black ${black}`;
  $('status').textContent = statusText();
  $('ply').textContent = `ply ${game.ply} of ${game.plies}`;
  const onlyPass = game.legal.length === 1 && game.legal[0] === 'PASS';
  $('pass').disabled = !(canPlay() && onlyPass);
  $('undo').disabled = pending || !canUndo();
  $('stop-engine').hidden = !engine;
  $('first').disabled = $('back').disabled = pending || game.ply === 0;
  $('last').disabled = $('forward').disabled = pending || game.ply === game.plies;
  $('analyse').disabled = pending || !!engine || !!analysis || !!reviewing || game.turn === 'over';
  $('stop-analysis').hidden = !analysis;
  $('review').disabled = pending || !!engine || !!analysis || !!reviewing || game.plies === 0;
  $('stop-review').hidden = !reviewing;
  $('from-here').disabled = pending || game.turn === 'over';
  $('export-lg').disabled = !game.exports.includes('lg');
  const link = `${location.origin}/?position=${encodeURIComponent(game.position)}`;
  $('link').href = link;
  renderMoves();
  renderReview();
  document.body.dataset.game = game.id;
  document.body.dataset.turn = game.turn;
  document.body.dataset.ply = String(game.ply);
  document.body.dataset.plies = String(game.plies);
  document.body.dataset.position = game.position;
  updateBusy();
}

function updateBusy() {
  document.body.dataset.busy = pending || engine ? 'yes' : 'no';
}

function canUndo() {
  if (game.you === 'both') return game.plies > 0;
  return game.moves.some((move) => move.by === 'you');
}

function statusText() {
  const side = capitalized(game.side);
  const at = game.ply < game.plies ? `After ply ${game.ply} of ${game.plies}: ` : '';
  if (game.turn === 'over') {
    let verdict = '';
    if (game.you !== 'both') {
      const mine = game.score[game.you];
      const theirs = game.score[game.you === 'white' ? 'black' : 'white'];
      verdict = mine > theirs ? ' You win!' : mine < theirs ? ' The engine wins.' : '';
    }
    return `${at}Game over: ${game.result}.${verdict}`;
  }
  if (engine) return `${game.engine} is thinking…`;
  if (game.result) return `${at}${capitalized(game.result)}. ${side} to move.`;
  if (game.turn === 'engine') return `${at}${side} to move: the engine's turn.`;
  const who = game.you === 'both' ? side : `Your move (${side})`;
  if (game.legal.length === 1 && game.legal[0] === 'PASS') return `${at}${who}: no stack can move, you must pass.`;
  if (game.phase === 'placement') return `${at}${who}: place a piece on an empty cell.`;
  if (selected) return `${at}${who}: choose where the stack on ${selected} goes.`;
  return `${at}${who}: click a stack, then its target.`;
}

/** The stacks that may move, and where each can go. */
function jumps() {
  const targets = new Map();
  for (const move of game.legal) {
    if (move.length !== 4) continue;
    const from = move.slice(0, 2);
    if (!targets.has(from)) targets.set(from, []);
    targets.get(from).push(move.slice(2));
  }
  return targets;
}

/** Marks the playable stacks and the legal targets on the board. */
function markBoard() {
  const board = $('board');
  for (const element of board.querySelectorAll('.movable, .selected, .target')) {
    element.classList.remove('movable', 'selected', 'target');
  }
  if (!canPlay()) return;
  const mark = (selector, name) => {
    for (const element of board.querySelectorAll(selector)) element.classList.add(name);
  };
  if (game.phase === 'placement') {
    for (const move of game.legal) mark(`.cell[data-cell="${move}"]`, 'target');
    return;
  }
  const targets = jumps();
  for (const from of targets.keys()) mark(`.stack[data-cell="${from}"]`, 'movable');
  if (selected) {
    mark(`.stack[data-cell="${selected}"]`, 'selected');
    for (const to of targets.get(selected) || []) {
      mark(`.cell[data-cell="${to}"]`, 'target');
      mark(`.stack[data-cell="${to}"]`, 'target');
    }
  }
}

function onBoardClick(event) {
  const element = event.target.closest('[data-cell]');
  if (!element || !canPlay()) return;
  const cell = element.dataset.cell;
  if (game.phase === 'placement') {
    if (game.legal.includes(cell)) play(cell);
    return;
  }
  if (selected && game.legal.includes(selected + cell)) {
    play(selected + cell);
    return;
  }
  selected = jumps().has(cell) && cell !== selected ? cell : null;
  render();
}

function play(move) {
  dropReview();
  request(async () => show(await api('POST', gamePath('/moves'), { move, ply: game.ply })));
}

/** Asks for the engine's move; the page stays usable meanwhile. */
async function engineMove() {
  const controller = new AbortController();
  engine = controller;
  render();
  try {
    const view = await api('POST', gamePath('/engine-move'), undefined, controller.signal);
    if (engine === controller) {
      engine = null;
      show(view);
    }
  } catch (error) {
    if (engine === controller) {
      engine = null;
      report(error);
      render();
    }
  }
}

/** Forgets the engine's move in flight (closing its request stops it). */
function dropEngineMove() {
  if (engine) {
    engine.abort();
    engine = null;
  }
}

function stopEngine() {
  if (engine) api('POST', gamePath('/stop')).catch(report);
}

function undo() {
  dropEngineMove();
  dropReview();
  request(async () => show(await api('POST', gamePath('/undo'))));
}

function step(ply) {
  if (!game || ply < 0 || ply > game.plies || ply === game.ply) return;
  request(async () => show(await api('GET', gamePath(`?ply=${ply}`))));
}

/** Parses one server-sent event block into its name and data. */
function parseEvent(block) {
  let name = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { name, data: JSON.parse(data.join('\n')) } : null;
}

/** Reads the server-sent events of a search's stream (`method` on
 * `path`), calling `onEvent` with each, until the stream ends. */
async function readEvents(method, path, signal, onEvent) {
  const response = await fetch(path, { method, signal });
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    throw new ApiError(response.status, data.error || response.statusText);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event) onEvent(event);
    }
  }
}

/** Analyses the position shown, updating the panel as the search goes. */
async function analyse() {
  if (!game || analysis || engine || reviewing) return;
  const controller = new AbortController();
  analysis = controller;
  $('evaluation').textContent = 'Searching…';
  $('pv').textContent = '';
  document.body.dataset.analysis = 'running';
  render();
  try {
    await readEvents('GET', gamePath(`/analysis?ply=${game.ply}`), controller.signal, (event) => {
      if (analysis === controller) showAnalysis(event);
    });
  } catch (error) {
    if (analysis === controller) report(error);
  } finally {
    if (analysis === controller) {
      analysis = null;
      document.body.dataset.analysis = 'done';
      render();
    }
  }
}

/** An evaluation in words: White's margin `forWhite` in pieces, proven
 * (`exact`) or estimated. */
function marginText(forWhite, exact) {
  const leader = forWhite > 0 ? 'White' : 'Black';
  const margin = Math.abs(forWhite);
  if (exact) return margin === 0 ? 'exact: a draw with best play' : `exact: ${leader} wins by ${margin} with best play`;
  return margin === 0 ? 'even (0.00)' : `${leader} +${margin.toFixed(2)}`;
}

function showAnalysis({ name, data }) {
  if (name === 'error') {
    say(data.error);
    return;
  }
  const forWhite = data.side === 'white' ? data.score : -data.score;
  const text = marginText(forWhite, data.exact);
  const depth = data.depth ? `, depth ${data.depth}` : '';
  const nodes = `${data.nodes.toLocaleString('en')} nodes in ${(data.time_ms / 1000).toFixed(1)} s`;
  const evaluation = $('evaluation');
  evaluation.textContent = `${text}${depth} (${nodes})${name === 'done' ? ' — done' : ''}`;
  evaluation.classList.toggle('exact', data.exact);
  $('pv').textContent = data.pv.length ? `Best line: ${data.pv.join(' ')}` : '';
}

/** Stops the analysis: on the server (it reports its last result), or by
 * closing its stream when the position it was for is gone. */
function stopAnalysis(keepResult) {
  if (!analysis) return;
  if (keepResult) {
    api('POST', gamePath('/stop')).catch(report);
    return;
  }
  analysis.abort();
  analysis = null;
  $('evaluation').textContent = '';
  $('pv').textContent = '';
  document.body.dataset.analysis = '';
}

/** The settings of the new-game form, as the API takes them. */
function settings() {
  const body = { you: $('you').value };
  if (body.you !== 'both') {
    const strength = $('strength').value;
    if (strength === 'time') body.time = Number($('time').value);
    else body.level = strength;
  }
  return body;
}

/** Opens a new game on the server and closes the one shown. */
function openGame(path, body) {
  dropEngineMove();
  stopAnalysis(false);
  dropReview();
  request(async () => {
    const old = game && game.id;
    const view = await api('POST', path, body);
    if (old) api('DELETE', `/api/games/${old}`).catch(() => {});
    show(view);
  });
}

function newGame(event) {
  event.preventDefault();
  openGame('/api/games', { ...settings(), setup: $('setup').value });
}

function playFromHere() {
  openGame('/api/games', { ...settings(), position: game.position });
}

function importGame() {
  const body = { text: $('import-text').value };
  const format = $('import-format').value;
  if (format) body.format = format;
  openGame('/api/games/import', body);
}

async function importFile() {
  const file = $('import-file').files[0];
  if (!file) return;
  $('import-text').value = await file.text();
  $('import-file').value = '';
  importGame();
}

function exportGame(format) {
  request(async () => {
    const exported = await api('GET', gamePath(`/export?format=${format}`));
    $('export-text').value = exported.text;
    const download = $('download');
    if (download.href) URL.revokeObjectURL(download.href);
    download.href = URL.createObjectURL(new Blob([exported.text], { type: 'text/plain' }));
    download.download = exported.filename;
    download.hidden = false;
  });
}

/** The move list: numbered moves, each a button to that ply. */
function renderMoves() {
  const list = $('moves');
  const moves = `${game.id}:${game.moves.map((move) => move.move).join(' ')}`;
  if (list.dataset.game !== moves) {
    list.dataset.game = moves;
    list.replaceChildren();
    // Moves are numbered from White's: a game from a position with Black
    // to move starts with "1. …".
    const whiteFirst = / w [pm]$/.test(game.start);
    let item = null;
    game.moves.forEach((move, i) => {
      const white = (i % 2 === 0) === whiteFirst;
      if (white || !item) {
        item = document.createElement('li');
        if (!white) item.append('… ');
        list.append(item);
      }
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `move by-${move.by}`;
      button.dataset.ply = String(i + 1);
      button.dataset.move = move.move;
      button.dataset.removes = move.removed.length ? `removes ${move.removed.join(' ')}` : `ply ${i + 1}`;
      item.append(button);
    });
  }
  for (const button of list.querySelectorAll('button')) {
    button.classList.toggle('current', Number(button.dataset.ply) === game.ply);
    markMove(button, review && review.plies[Number(button.dataset.ply) - 1]);
  }
  const shown = list.querySelector('.current');
  if (shown) shown.scrollIntoView({ block: 'nearest' });
}

/** The symbols of the marks, as game records annotate moves. */
const MARK_SYMBOLS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** Shows on a move's button the review of its move (`entry`, if any):
 * its mark, as a symbol, a colour and in the tooltip with the loss. */
function markMove(button, entry) {
  const mark = entry ? entry.mark : null;
  button.textContent = button.dataset.move + (mark ? MARK_SYMBOLS[mark] : '');
  for (const name of Object.keys(MARK_SYMBOLS)) button.classList.toggle(`mark-${name}`, mark === name);
  button.classList.toggle('marked', !!mark);
  let title = button.dataset.removes;
  if (mark) title += `; ${mark}: loss ${entry.loss.toFixed(2)}${entry.best ? `, better ${entry.best}` : ''}`;
  button.title = title;
}

/** Forgets the review shown. */
function clearReview() {
  review = null;
  $('graph').replaceChildren();
  $('review-summary').replaceChildren();
  $('review-status').textContent = '';
  document.body.dataset.review = '';
}

/** Takes `doc`, a whole review from the server, as the game's review. */
function setReview(doc) {
  review = { game: game.id, doc, plies: [] };
  for (const entry of doc.plies) review.plies[entry.ply] = entry;
  const graph = $('graph');
  graph.innerHTML = doc.graph;
  const svg = graph.querySelector('svg');
  if (svg) {
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', "the evaluation graph: White's margin over the game");
  }
  const reviewed = doc.plies.length;
  const how = `${doc.time} s a position`;
  $('review-status').textContent = {
    null: `Reviewed at ${how}: all ${reviewed} plies.`,
    stopped: `Stopped at ${how}: the last ${reviewed} of ${doc.game_length} plies reviewed.`,
    time_limit: `Cut short by the server's time limit at ${how}: the last ${reviewed} of ${doc.game_length} plies reviewed.`,
  }[doc.cut];
  const tag = (name) => (game.tags.find(([tagName]) => tagName === name) || [])[1];
  const lines = ['white', 'black'].map((side) => {
    const summary = doc.summary[side];
    const name = tag(capitalized(side));
    const item = document.createElement('li');
    item.textContent =
      `${capitalized(side)}${name ? ` (${name})` : ''}: ${plural(summary.moves, 'move', 'moves')}, ` +
      `average loss ${summary.average_loss.toFixed(2)}; ` +
      `${plural(summary.inaccuracies, 'inaccuracy', 'inaccuracies')}, ${plural(summary.mistakes, 'mistake', 'mistakes')}, ` +
      `${plural(summary.blunders, 'blunder', 'blunders')}`;
    return item;
  });
  $('review-summary').replaceChildren(...lines);
  document.body.dataset.review = 'done';
}

/** Fetches the game's last review from the server. */
async function loadReview() {
  const id = game.id;
  if (loadingReview === id) return;
  loadingReview = id;
  try {
    const doc = await api('GET', gamePath('/review'));
    if (game.id === id && !reviewing) setReview(doc);
  } catch (error) {
    if (error.status !== 404) report(error);
  } finally {
    loadingReview = null;
    render();
  }
}

/** Reviews the game on the server, marking the moves as they are judged
 * (from the last back); then shows the graph and the engine's moves. */
async function startReview() {
  if (!game || reviewing || engine || analysis || game.plies === 0) return;
  const controller = new AbortController();
  reviewing = controller;
  clearReview();
  review = { game: game.id, doc: null, plies: [] };
  const progress = $('review-progress');
  progress.value = 0;
  progress.hidden = false;
  $('review-status').textContent = 'Reviewing…';
  document.body.dataset.review = 'running';
  render();
  let done = null;
  const time = Number($('review-time').value);
  try {
    await readEvents('POST', gamePath(`/review?time=${time}`), controller.signal, ({ name, data }) => {
      if (reviewing !== controller) return;
      if (name === 'ply') {
        review.plies[data.ply.ply] = data.ply;
        progress.value = data.reviewed / data.total;
        $('review-status').textContent = `Reviewing: ${data.reviewed} of ${data.total} plies, from the last…`;
        renderMoves();
      } else if (name === 'done') {
        done = data;
      } else if (name === 'error') {
        say(data.error);
      }
    });
  } catch (error) {
    if (reviewing === controller) report(error);
  }
  if (reviewing !== controller) return;
  reviewing = null;
  progress.hidden = true;
  try {
    // The server draws the engine's moves once it keeps the review.
    const view = await api('GET', gamePath(`?ply=${game.ply}`));
    if (done && view.reviewed) {
      setReview(done);
    } else {
      clearReview();
      if (done) say('The review was dropped: the game changed while it ran.');
    }
    show(view);
  } catch (error) {
    report(error);
    render();
  }
}

/** Stops the review: the server keeps the plies it judged. */
function stopReview() {
  if (reviewing) api('POST', gamePath('/stop')).catch(report);
}

/** Forgets the review in flight (closing its stream stops it). */
function dropReview() {
  if (reviewing) {
    reviewing.abort();
    reviewing = null;
    $('review-progress').hidden = true;
    clearReview();
  }
}

/** The review of the position shown: the move played there, judged, and
 * the engine's choice (the blue arrow). */
function reviewLine() {
  if (game.ply === game.plies) return 'The end of the game.';
  const entry = review.plies[game.ply];
  if (!entry) return `Ply ${game.ply} was not reviewed.`;
  const evaluation = marginText(entry.eval_before, entry.eval_before_exact);
  const played = `Ply ${entry.ply}, ${capitalized(entry.side)} to move (${evaluation}): played ${entry.move}`;
  let engine = '';
  if (entry.engine_move === 'PASS') engine = ' The engine passes.';
  else if (entry.engine_move) engine = ` The engine plays ${entry.engine_move} (blue arrow).`;
  if (entry.forced) return `${played}, the only move.`;
  if (entry.mark) return `${played} — ${entry.mark}, ${entry.loss.toFixed(2)} pieces lost.${engine}`;
  if (entry.engine_move === entry.move) return `${played}, the engine's move too (blue arrow).`;
  return `${played}, ${entry.loss.toFixed(2)} pieces lost.${engine}`;
}

/** Draws the review's graph and line for the position shown. */
function renderReview() {
  const shown = !!(review && review.doc);
  $('review-view').hidden = !shown;
  if (!shown) return;
  for (const band of $('graph').querySelectorAll('rect.ply')) {
    band.classList.toggle('current', Number(band.dataset.ply) === game.ply);
  }
  $('review-line').textContent = reviewLine();
}

/** A click on the graph shows the position where the ply's move was
 * chosen. */
function onGraphClick(event) {
  const target = event.target.closest('[data-ply]');
  if (target) step(Number(target.dataset.ply));
}

function onKey(event) {
  if (!game || event.target.closest('input, textarea, select')) return;
  const keys = { ArrowLeft: game.ply - 1, ArrowRight: game.ply + 1, Home: 0, End: game.plies };
  if (event.key in keys) {
    event.preventDefault();
    step(keys[event.key]);
  }
}

/** Fills the engine choices from the server's levels. */
function fillStrengths(status) {
  const select = $('strength');
  for (const level of status.levels) {
    select.append(new Option(capitalized(level), level, false, level === status.default_level));
  }
  select.append(new Option('Seconds per move…', 'time'));
  $('time').max = String(status.max_move_time);
  $('review-time').max = String(status.max_move_time);
  $('review-time').value = String(status.default_review_time);
  select.addEventListener('change', () => {
    $('time-label').hidden = select.value !== 'time';
  });
  $('you').addEventListener('change', () => {
    select.disabled = $('you').value === 'both';
  });
}

async function start() {
  $('board').addEventListener('click', onBoardClick);
  $('pass').addEventListener('click', () => play('PASS'));
  $('undo').addEventListener('click', undo);
  $('stop-engine').addEventListener('click', stopEngine);
  $('first').addEventListener('click', () => step(0));
  $('back').addEventListener('click', () => step(game.ply - 1));
  $('forward').addEventListener('click', () => step(game.ply + 1));
  $('last').addEventListener('click', () => step(game.plies));
  $('moves').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-ply]');
    if (button) step(Number(button.dataset.ply));
  });
  $('new-game').addEventListener('submit', newGame);
  $('from-here').addEventListener('click', playFromHere);
  $('analyse').addEventListener('click', analyse);
  $('stop-analysis').addEventListener('click', () => stopAnalysis(true));
  $('review').addEventListener('click', startReview);
  $('stop-review').addEventListener('click', stopReview);
  $('graph').addEventListener('click', onGraphClick);
  $('import').addEventListener('click', importGame);
  $('import-file').addEventListener('change', importFile);
  $('export-record').addEventListener('click', () => exportGame('record'));
  $('export-lg').addEventListener('click', () => exportGame('lg'));
  document.addEventListener('keydown', onKey);
  try {
    fillStrengths(await api('GET', '/api/status'));
    const position = new URLSearchParams(location.search).get('position');
    const stored = sessionStorage.getItem('dvonn-game');
    let view;
    if (position) {
      view = await api('POST', '/api/games', { you: 'both', position });
      history.replaceState(null, '', '/');
    } else if (stored) {
      view = await api('GET', `/api/games/${encodeURIComponent(stored)}`).catch(() => null);
    }
    show(view || (await api('POST', '/api/games', settings())));
  } catch (error) {
    report(error);
  }
  updateBusy();
}

start();
