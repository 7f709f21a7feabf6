// The load run of `dvonn serve` (not a test: its numbers depend on the
// machine): CLIENTS browser-less clients at once, each playing a whole game
// against the engine at MOVE_TIME seconds per engine move, moving at random
// as fast as the server answers, stepping back through the game now and
// then, exporting it at the end and closing it. Prints the games finished,
// the errors, and the latency of the requests that are not searches
// (median and 99th percentile), with the engine moves' for comparison.
//
// Run: node load.mjs [clients] [move time] (in this folder), after
// `cargo build --release -p dvonn-cli` (without it, the binary of
// `cargo test`; $DVONN_BIN names another one).
// The run stops by itself after LIMIT_MS at the latest.
import { api, binary, startServer } from './server.mjs';

const CLIENTS = Number(process.argv[2] || 20);
const MOVE_TIME = Number(process.argv[3] || 0.1);
const LIMIT_MS = 20 * 60 * 1000;

const requests = [];
const searches = [];
const errors = [];
let finished = 0;
let stopped = false;

/** Runs `call`, recording its time in `times`. */
async function timed(times, call) {
  const start = performance.now();
  const result = await call();
  times.push(performance.now() - start);
  return result;
}

/** One client: a whole game as White or Black. */
async function client(url, number) {
  const you = number % 2 === 0 ? 'white' : 'black';
  let view = await timed(requests, () => api(url, 'POST', '/api/games', { you, time: MOVE_TIME }));
  const game = `/api/games/${view.id}`;
  while (view.turn !== 'over' && !stopped) {
    if (view.turn === 'engine') {
      view = await timed(searches, () => api(url, 'POST', `${game}/engine-move`));
    } else {
      const move = view.legal[Math.floor(Math.random() * view.legal.length)];
      view = await timed(requests, () => api(url, 'POST', `${game}/moves`, { move }));
    }
    if (view.plies % 10 === 0 && view.plies > 0) {
      await timed(requests, () => api(url, 'GET', `${game}?ply=${view.plies - 1}`));
    }
  }
  if (stopped) return;
  await timed(requests, () => api(url, 'GET', `${game}/export?format=record`));
  await timed(requests, () => api(url, 'DELETE', game));
  finished += 1;
}

function percentile(times, p) {
  if (times.length === 0) return NaN;
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value) => `${value.toFixed(1)} ms`;

const program = binary(['release', 'debug']);
const server = await startServer(program);
const limit = setTimeout(() => {
  stopped = true;
}, LIMIT_MS);
const start = performance.now();
try {
  const clients = Array.from({ length: CLIENTS }, (_, number) =>
    client(server.url, number).catch((error) => errors.push(error.message)),
  );
  await Promise.all(clients);
} finally {
  clearTimeout(limit);
  await server.stop();
}
const seconds = (performance.now() - start) / 1000;
console.log(`${program}: ${CLIENTS} clients, ${MOVE_TIME} s per engine move, ${seconds.toFixed(0)} s in all`);
console.log(`games finished: ${finished} of ${CLIENTS}; errors: ${errors.length}`);
console.log(
  `requests other than searches: ${requests.length}, median ${ms(percentile(requests, 50))}, ` +
    `99th percentile ${ms(percentile(requests, 99))}, slowest ${ms(Math.max(...requests))}`,
);
console.log(
  `engine moves: ${searches.length}, median ${ms(percentile(searches, 50))}, ` +
    `99th percentile ${ms(percentile(searches, 99))}`,
);
for (const error of errors.slice(0, 10)) console.log(`error: ${error}`);
process.exitCode = errors.length === 0 && finished === CLIENTS ? 0 : 1;
