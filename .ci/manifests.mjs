// Checks what the workspace's manifests promise, from `cargo metadata`:
//
// - the minimum Rust version (`rust-version`, the same for every package)
//   is at least the `rust-version` of every package in Cargo.lock, for
//   every platform: a dependency that needs a newer compiler raises the
//   workspace's (clippy's incompatible_msrv checks the standard library
//   items the code uses, and no language feature newer than it may be
//   used: neither tool sees the other's half);
// - `cargo test` at the root tests every package: the default members are
//   all the members.
//
// Run from the repository: node .ci/manifests.mjs
import { execFileSync } from 'node:child_process';

const metadata = JSON.parse(
  execFileSync('cargo', ['metadata', '--format-version', '1', '--locked'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  }),
);
const problems = [];

const parse = (version) => version.split('.').map(Number);
const newer = (a, b) => {
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  }
  return false;
};

const members = new Set(metadata.workspace_members);
const ours = metadata.packages.filter((p) => members.has(p.id));
const msrvs = new Set(ours.map((p) => p.rust_version));
if (msrvs.size !== 1 || msrvs.has(null)) {
  problems.push(`the packages do not share one rust-version: ${ours.map((p) => `${p.name} ${p.rust_version}`).join(', ')}`);
}
const msrv = ours[0].rust_version;
const needing = metadata.packages.filter((p) => !members.has(p.id) && p.rust_version && newer(p.rust_version, msrv));
for (const p of needing) {
  problems.push(`${p.name} ${p.version} needs Rust ${p.rust_version}, newer than the workspace's rust-version ${msrv}`);
}
const newest = metadata.packages
  .filter((p) => !members.has(p.id) && p.rust_version)
  .reduce((a, b) => (newer(b.rust_version, a.rust_version) ? b : a));

const defaults = new Set(metadata.workspace_default_members);
for (const p of ours) {
  if (!defaults.has(p.id)) problems.push(`${p.name} is not a default member: cargo test at the root leaves it out`);
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`manifests: ${problem}`);
  process.exit(1);
}
console.log(
  `manifests: rust-version ${msrv}; the newest a dependency needs is ${newest.rust_version} (${newest.name} ${newest.version}); ` +
    `cargo test at the root tests all ${ours.length} packages`,
);
