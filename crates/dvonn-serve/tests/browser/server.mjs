// Starts the `dvonn` binary's web server on a free port for the browser test
// and the load run, and stops it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The root of the repository. */
export const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The `dvonn` binary: $DVONN_BIN, else the first of `profiles` built
 * under target/. */
export function binary(profiles = ['debug']) {
  if (process.env.DVONN_BIN) return process.env.DVONN_BIN;
  const built = profiles.map((profile) => path.join(repository, 'target', profile, 'dvonn'));
  return built.find((file) => existsSync(file)) || built[0];
}

/** Starts `dvonn serve --port 0` from `binary`; resolves to its page's URL
 * and a function that stops it. */
export async function startServer(binary) {
  const child = spawn(binary, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    child.once('error', reject);
    exited.then((code) => reject(new Error(`${binary} serve exited with status ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      const found = line.match(/http:\/\/\S+\//);
      if (found) resolve(found[0]);
      else reject(new Error(`unexpected first line from dvonn serve: ${line}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGINT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  return { url, stop };
}

/** Calls the server's API; resolves to the JSON answer, throws on an error
 * status with the server's message. */
export async function api(url, method, route, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(new URL(route, url), options);
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${data && data.error}`);
  return data;
}
