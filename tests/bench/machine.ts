import { cpus, loadavg } from 'node:os';

/**
 * The machine a benchmark ran on, printed first by every benchmark: a figure means little without
 * it, and a ratio the README claims must name the machine that gave it (issue 27 item 4). The load
 * average says how much else was running: on a shared 2-core machine it moves every figure.
 */
export function machineLine(): string {
  const all = cpus();
  const [one, five, fifteen] = loadavg().map((l) => l.toFixed(1));
  return `machine: ${all[0]?.model.trim() ?? 'unknown CPU'}, ${all.length} cores, Node ${process.version}, load ${one} ${five} ${fifteen} (1, 5, 15 min) at the start`;
}
