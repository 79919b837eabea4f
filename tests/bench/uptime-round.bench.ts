/**
 * One probe round of the embedded regions at the benchmark's scale (issue 14, item 9: 1,000
 * monitors): every region probes every monitor on a connection of its own, against a local
 * target that answers at once. It prints how long a round takes (it must stay well inside the
 * shortest cadence, 60 s), the probes' own latency, and the CPU and peak memory the rounds cost.
 * The scheduler's lateness benchmark (`npm run bench:uptime`) comes with the scheduler.
 *
 *   npx tsx tests/bench/uptime-round.bench.ts [monitors=1000] [rounds=5]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { embeddedProbers, probeRound } from '@/lib/uptime/regions';
import { nearestRank } from '@/lib/uptime/rollup';
import { machineLine } from './machine';

const MONITORS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 5);

// The target runs in a process of its own, as a real one does: sharing this event loop, its
// accepts and parsing would be measured as the prober's waiting. Its backlog is deep enough for
// every region's connections at once (the default, 511, drops SYNs past it and the kernel's 1 s
// retransmit would be measured instead).
const target = spawn(
  process.execPath,
  [
    '-e',
    `const s = require('node:http').createServer((q, r) => r.end('ok'));
     s.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => console.log(s.address().port));`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const [portLine] = (await once(target.stdout, 'data')) as [Buffer];
const port = Number(portLine.toString().trim());
const targets = Array.from({ length: MONITORS }, (_, i) => ({
  monitorId: `m${i}`,
  url: `http://127.0.0.1:${port}/m/${i}`,
  timeoutSeconds: 10,
}));
const probers = embeddedProbers({ allowPrivate: true, retryDelayMs: 0 });

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const cpuBefore = process.cpuUsage();
const roundMs: number[] = [];
const latencies: number[] = [];
let failed = 0;
for (let r = 0; r < ROUNDS; r++) {
  const started = performance.now();
  const results = await probeRound(probers, targets);
  roundMs.push(performance.now() - started);
  for (const perMonitor of results.values()) {
    for (const result of perMonitor) {
      if (result.ok) latencies.push(result.totalMs);
      else failed++;
    }
  }
}
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);
target.kill();

latencies.sort((a, b) => a - b);
const wall = roundMs.reduce((a, b) => a + b, 0);
const fmt = (n: number | null) => (n === null ? '-' : `${Math.round(n)} ms`);
console.log(machineLine());
console.log(
  `${MONITORS} monitors x 4 regions, ${ROUNDS} rounds, ${latencies.length + failed} probes, ${failed} failed`,
);
console.log(
  `round: median ${fmt(
    nearestRank(
      [...roundMs].sort((a, b) => a - b),
      50,
    ),
  )}, max ${fmt(Math.max(...roundMs))}`,
);
console.log(`probe totalMs: p50 ${fmt(nearestRank(latencies, 50))}, p99 ${fmt(nearestRank(latencies, 99))}`);
console.log(
  `CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms over ${Math.round(wall)} ms of rounds ` +
    `(${Math.round(((cpu.user + cpu.system) / 1000 / wall) * 100)}% of one core), ` +
    `${Math.round(((cpu.user + cpu.system) / 1000 / (latencies.length + failed)) * 100) / 100} ms per probe; ` +
    `peak RSS ${Math.round(peakRss / 1024 / 1024)} MB`,
);
