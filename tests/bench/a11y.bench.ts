/**
 * Accessibility render benchmark: Sitewatch's render pass (lib/a11y `renderPages`, the code the
 * product runs, with its own `BrowserHolder`) against pa11y-ci with its axe runner, on the same
 * Chromium and the same 200 local pages (tests/bench/a11y-site.ts), taking turns.
 *
 *   npm run bench:a11y                          # 200 pages, 3 runs of each, alternating
 *   npm run bench:a11y -- --pages 50 --runs 1   # a quick look
 *   npm run bench:a11y -- --concurrency 6       # pages at once, both tools (default: the product's)
 *   npm run bench:a11y -- --only sitewatch      # the render pass alone (tuning it)
 *   BENCH_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof'   # extra Node flags for the Sitewatch child
 *
 * What is measured: each tool runs in a child process of its own, and the figure is that process's
 * wall time from spawn to exit (Node start, browser launch, every page, browser close), so both pay
 * the same fixed costs. Memory is the process tree's (the Node process and every Chromium process
 * under it), sampled from /proc every 100 ms: RSS summed, which counts memory Chromium's processes
 * share once per process, and PSS, which splits shared pages between them (what the tree really
 * occupies). "Flat" compares the peak of the run's second half with its first.
 *
 * Storage is not part of the measure: the render pass yields its `PageScan`s and the benchmark
 * keeps (page, rule) pairs, as pa11y-ci's JSON report gives them; pa11y-ci stores nothing either.
 *
 * pa11y-ci is not a dependency (its puppeteer downloads a browser when installed): the first run
 * installs the pinned version into `.bench-tools/` (git-ignored) with PUPPETEER_SKIP_DOWNLOAD=true,
 * and its `chromeLaunchConfig` points at the binary and flags the render pass launches
 * (`chromiumLaunchOptions`, i.e. @sparticuz/chromium or CHROMIUM_PATH).
 *
 * pa11y's axe runner maps `standard: 'WCAG2AA'` to the tags wcag2a, wcag21a, wcag2aa, wcag21aa and
 * best-practice; the rules our tags add (WCAG 2.2 and AAA: target-size, color-contrast-enhanced,
 * ...) are switched on by id through pa11y's `rules` option, computed from pa11y's own axe-core, so
 * both run the same rules but for those its older axe-core lacks. Warnings and notices are
 * included (pa11y drops moderate and minor issues by default). Both render the same number of pages
 * at once (`--concurrency`, default the render pass's). Differences that remain, and are
 * named in the comparison: pa11y injects axe into the top document only, so problems inside
 * iframes are ours alone; and pa11y ships its own axe-core version.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serverEnv, serverNodeArgs } from '../../scripts/node-flags.mjs';
import { compileBench } from './compile';
import { machineLine } from './machine';

/** The pa11y-ci version measured (its pa11y 9 ships axe-core 4.11). */
const PA11Y_CI_VERSION = '4.1.1';
const SAMPLE_MS = 100;

const self = fileURLToPath(import.meta.url);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const toolsDir = `${repo}.bench-tools`;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

type Tool = 'sitewatch' | 'pa11y-ci';

/** (page path, rule id) pairs, as `path rule` strings, and the reasons pages were not checked. */
interface Findings {
  violations: string[];
  /** Our violations whose every element sits inside an iframe (selectors crossing ` >>> `). */
  inFramesOnly: string[];
  incomplete: string[];
  notChecked: Record<string, string>;
}

interface Measurement {
  tool: Tool;
  pages: number;
  seconds: number;
  pagesPerMinute: number;
  /** CPU seconds the whole tree used (the Node process, Chromium and every renderer), see reapedChildrenCpu. */
  cpuSeconds: number;
  /** CPU seconds by process kind (node, browser, renderer, gpu-process, utility:network, ...), sampled. */
  cpuByKind: Record<string, { seconds: number; processes: number }>;
  peakRssMb: number;
  peakPssMb: number;
  /** Peak tree RSS in the first and the second half of the run. */
  firstHalfRssMb: number;
  secondHalfRssMb: number;
  findings: Findings;
}

const mb = (kb: number) => Math.round(kb / 1024);
const pathOf = (url: string) => new URL(url).pathname;

// ---------------------------------------------------------------------------------------------
// Memory of a process tree, from /proc

/** The pids of `root` and every process under it. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] as number) ?? []));
  return tree;
}

/** RSS and PSS of a process in kB (smaps_rollup), or zeros once it has exited. */
function memoryOf(pid: number): { rss: number; pss: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { rss: field('Rss'), pss: field('Pss') };
  } catch {
    return { rss: 0, pss: 0 };
  }
}

/** CPU seconds a process has used so far (utime + stime), or null once it has exited. */
function cpuOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * What a process of the tree is: the tool's Node process, Chromium's browser process, or the kind
 * Chromium gives its children (`--type=renderer`, `gpu-process`, `utility` with its service name).
 */
function kindOf(pid: number, root: number): string {
  if (pid === root) return 'node';
  try {
    // Chromium rewrites its children's command lines into one space-separated string.
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    const type = argv.find((a) => a.startsWith('--type='))?.slice('--type='.length);
    if (!type) return argv[0]?.includes('chrom') ? 'browser' : 'other';
    const service = argv
      .find((a) => a.startsWith('--utility-sub-type='))
      ?.slice('--utility-sub-type='.length)
      .split('.')[0];
    return type === 'utility' && service ? `utility:${service}` : type;
  } catch {
    return 'other';
  }
}

class TreeSampler {
  private readonly samples: { at: number; rss: number; pss: number }[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly started = performance.now();
  /** Per pid seen: its kind and the last CPU seconds read (a process's last ~100 ms are missed). */
  private readonly cpu = new Map<number, { kind: string; seconds: number }>();

  constructor(private readonly root: number) {
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  private sample(): void {
    let rss = 0;
    let pss = 0;
    for (const pid of processTree(this.root)) {
      const m = memoryOf(pid);
      rss += m.rss;
      pss += m.pss;
      const seconds = cpuOf(pid);
      if (seconds === null) continue;
      const seen = this.cpu.get(pid);
      if (seen) seen.seconds = seconds;
      else this.cpu.set(pid, { kind: kindOf(pid, this.root), seconds });
    }
    if (rss > 0) this.samples.push({ at: performance.now() - this.started, rss, pss });
  }

  /** CPU seconds by process kind, and how many processes of each kind ran. */
  cpuByKind(): Record<string, { seconds: number; processes: number }> {
    const byKind: Record<string, { seconds: number; processes: number }> = {};
    for (const { kind, seconds } of this.cpu.values()) {
      const entry = byKind[kind] ?? { seconds: 0, processes: 0 };
      byKind[kind] = { seconds: entry.seconds + seconds, processes: entry.processes + 1 };
    }
    return byKind;
  }

  stop() {
    clearInterval(this.timer);
    const end = this.samples.at(-1)?.at ?? 0;
    const peak = (list: typeof this.samples, key: 'rss' | 'pss') =>
      mb(Math.max(0, ...list.map((s) => s[key])));
    const first = this.samples.filter((s) => s.at <= end / 2);
    const second = this.samples.filter((s) => s.at > end / 2);
    return {
      peakRssMb: peak(this.samples, 'rss'),
      peakPssMb: peak(this.samples, 'pss'),
      firstHalfRssMb: peak(first, 'rss'),
      secondHalfRssMb: peak(second, 'rss'),
    };
  }
}

/**
 * CPU seconds of this process's exited children and everything they waited for (cutime + cstime):
 * Chromium waits for its renderers, the tool's Node process for Chromium, this process for the
 * tool. On a shared machine this says what a run cost when its wall time says how busy others were.
 * It misses a process that outlives its parent (reparented to init, which reaps it): Chromium's
 * renderers still open when the browser exits. The sampled sum per process (`TreeSampler`) misses
 * instead the last 100 ms of each process. Neither counts anything twice, so a run's CPU is the
 * larger of the two.
 */
function reapedChildrenCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Runs a child to its exit, sampling its tree; the wall time is spawn to exit. */
async function measureChild(
  tool: Tool,
  start: () => ChildProcess,
): Promise<Omit<Measurement, 'findings' | 'pages' | 'pagesPerMinute'>> {
  const cpuBefore = reapedChildrenCpu();
  const started = performance.now();
  const proc = start();
  const sampler = new TreeSampler(proc.pid as number);
  const code = await new Promise<number | null>((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', resolve);
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuByKind = sampler.cpuByKind();
  const memory = sampler.stop();
  const sampled = Object.values(cpuByKind).reduce((sum, kind) => sum + kind.seconds, 0);
  const cpuSeconds = Math.max(reapedChildrenCpu() - cpuBefore, sampled);
  // pa11y-ci exits 2 when it found issues, which it always does here.
  if (code !== 0 && !(tool === 'pa11y-ci' && code === 2)) throw new Error(`${tool} exited with ${code}`);
  return { tool, seconds, cpuSeconds, cpuByKind, ...memory };
}

// ---------------------------------------------------------------------------------------------
// Sitewatch: the render pass in a child process

interface SitewatchInput {
  urls: string[];
  concurrency: number;
  /** Pages per `renderPages` call (the pass's batch); 0 for all in one call. */
  batch: number;
  out: string;
}

/**
 * In the child: render every page as the product does (the worker's `BrowserHolder`, batches of
 * the pass's size under one run key, as `renderBatch` calls it), keep what the comparison needs.
 */
async function renderInChild({ urls, concurrency, batch, out }: SitewatchInput): Promise<void> {
  const { renderPages } = await import('@/lib/a11y/engine/render');
  const { BrowserHolder } = await import('@/lib/a11y/engine/browser');
  const { FRAME_SEPARATOR } = await import('@/lib/a11y/engine/axe-results');
  const findings: Findings = { violations: [], inFramesOnly: [], incomplete: [], notChecked: {} };
  const browsers = new BrowserHolder();
  const size = batch > 0 ? batch : urls.length;
  async function* batches() {
    for (let start = 0; start < urls.length; start += size)
      yield* renderPages(urls.slice(start, start + size), { concurrency, browsers, runKey: 'bench' });
  }
  try {
    await scanAll(batches());
  } finally {
    await browsers.close();
  }
  writeFileSync(out, JSON.stringify(findings));

  async function scanAll(scans: AsyncIterable<import('@/lib/a11y/engine/scan').PageScan>): Promise<void> {
    for await (const scan of scans) {
      const path = pathOf(scan.url);
      if (scan.status === 'not-scanned') {
        findings.notChecked[path] = scan.reason;
        continue;
      }
      for (const finding of scan.findings) {
        const key = `${path} ${finding.rule}`;
        if (finding.type === 'incomplete') {
          findings.incomplete.push(key);
          continue;
        }
        findings.violations.push(key);
        // Examples are capped, but the cap (10) is above what any page here has per rule.
        if (finding.nodes.every((node) => node.selector.includes(FRAME_SEPARATOR)))
          findings.inFramesOnly.push(key);
      }
    }
  }
}

let compiled: Promise<string> | null = null;

async function runSitewatch(
  urls: string[],
  concurrency: number,
  batch: number,
  work: string,
): Promise<Measurement> {
  compiled ??= compileBench(self, 'a11y.bench');
  const entry = await compiled;
  const out = `${work}/sitewatch.json`;
  const input: SitewatchInput = { urls, concurrency, batch, out };
  const measured = await measureChild('sitewatch', () =>
    spawn(
      process.execPath,
      [
        ...serverNodeArgs(process.env.NODE_OPTIONS),
        // Extra Node flags for the Sitewatch child only, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'.
        ...(process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
        entry,
        '--child',
        JSON.stringify(input),
      ],
      {
        stdio: 'inherit',
        env: { ...serverEnv(), ALLOW_PRIVATE_NETWORK: 'true' },
      },
    ),
  );
  return finish(measured, urls.length, JSON.parse(readFileSync(out, 'utf8')) as Findings);
}

function finish(
  measured: Omit<Measurement, 'findings' | 'pages' | 'pagesPerMinute'>,
  urls: number,
  findings: Findings,
): Measurement {
  const pages = urls - Object.keys(findings.notChecked).length;
  return { ...measured, pages, pagesPerMinute: (pages / measured.seconds) * 60, findings };
}

// ---------------------------------------------------------------------------------------------
// pa11y-ci

/** Installs the pinned pa11y-ci into .bench-tools/ the first time (never as a project dependency). */
function ensurePa11yCi(): string {
  const bin = `${toolsDir}/node_modules/pa11y-ci/bin/pa11y-ci.js`;
  const manifest = `${toolsDir}/node_modules/pa11y-ci/package.json`;
  const installed = existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version;
  if (installed !== PA11Y_CI_VERSION) {
    console.log(`installing pa11y-ci@${PA11Y_CI_VERSION} into .bench-tools/ (once)`);
    const result = spawnSync(
      'npm',
      ['install', '--prefix', toolsDir, '--no-audit', '--no-fund', `pa11y-ci@${PA11Y_CI_VERSION}`],
      { stdio: 'inherit', env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: 'true' } },
    );
    if (result.status !== 0) throw new Error('could not install pa11y-ci');
  }
  return bin;
}

/** pa11y's own axe-core: its version and the rules pa11y must switch on by id to match our tags. */
async function pa11yAxe(): Promise<{ version: string; extraRules: string[]; ruleIds: Set<string> }> {
  const { AXE_RUN_ONLY_TAGS } = await import('@/lib/a11y/report/rules');
  const fromPa11y = createRequire(`${toolsDir}/node_modules/pa11y/lib/pa11y.js`);
  const axe = fromPa11y('axe-core') as typeof import('axe-core');
  // What pa11y's axe runner puts in runOnly for standard WCAG2AA (lib/runners/axe.js).
  const pa11yTags = ['wcag2a', 'wcag21a', 'wcag2aa', 'wcag21aa', 'best-practice'];
  const ids = (tags: string[]) =>
    new Set(
      axe
        .getRules(tags)
        .filter((rule) => !rule.tags.includes('experimental'))
        .map((rule) => rule.ruleId),
    );
  const theirs = ids(pa11yTags);
  const ours = ids([...AXE_RUN_ONLY_TAGS]);
  return {
    version: axe.version,
    extraRules: [...ours].filter((id) => !theirs.has(id)),
    ruleIds: new Set(axe.getRules().map((rule) => rule.ruleId)),
  };
}

interface Pa11yIssue {
  code: string;
  runnerExtras?: { needsFurtherReview?: boolean };
}

async function runPa11yCi(
  bin: string,
  urls: string[],
  concurrency: number,
  extraRules: string[],
  work: string,
): Promise<Measurement> {
  const { chromiumLaunchOptions } = await import('@/lib/a11y/engine/browser');
  const out = `${work}/pa11y.json`;
  const configFile = `${work}/pa11yci.json`;
  writeFileSync(
    configFile,
    JSON.stringify({
      defaults: {
        runners: ['axe'],
        standard: 'WCAG2AA',
        rules: extraRules,
        includeWarnings: true,
        includeNotices: true,
        concurrency,
        // pa11y-ci opens an incognito context per page by default; with more than one page at a
        // time that fails here (pages lost to "Target.closeTarget: No target found" and 30 s
        // timeouts). Sharing the browser's one context lets its concurrency work, and also lets it
        // serve the shared stylesheet and images from cache, an edge the render pass (a fresh
        // context per page) does not have.
        useIncognitoBrowserContext: false,
        timeout: 30_000,
        // The binary and flags the render pass uses; 'shell' is how @sparticuz/chromium's
        // headless-only build runs under puppeteer (playwright passes the same --headless).
        chromeLaunchConfig: { ...(await chromiumLaunchOptions()), headless: 'shell' },
        reporters: [['json', { fileName: out }]],
      },
      urls,
    }),
  );
  const measured = await measureChild('pa11y-ci', () =>
    spawn(process.execPath, [...serverNodeArgs(process.env.NODE_OPTIONS), bin, '--config', configFile], {
      stdio: 'inherit',
      env: serverEnv(),
    }),
  );
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    results: Record<string, (Pa11yIssue | { message: string })[]>;
  };
  const findings: Findings = { violations: [], inFramesOnly: [], incomplete: [], notChecked: {} };
  for (const [url, issues] of Object.entries(report.results)) {
    const path = pathOf(url);
    const failed = issues.find((issue): issue is { message: string } => !('code' in issue));
    if (failed) {
      findings.notChecked[path] = failed.message;
      continue;
    }
    for (const issue of issues as Pa11yIssue[]) {
      const list = issue.runnerExtras?.needsFurtherReview ? findings.incomplete : findings.violations;
      list.push(`${path} ${issue.code}`);
    }
  }
  // pa11y lists an issue once per element: one pair per (page, rule) as ours.
  findings.violations = [...new Set(findings.violations)];
  findings.incomplete = [...new Set(findings.incomplete)];
  return finish(measured, urls.length, findings);
}

// ---------------------------------------------------------------------------------------------
// Comparison and report

interface Comparison {
  same: boolean;
  both: number;
  onlyOursInFrames: number;
  onlyOursRuleMissingInPa11y: string[];
  onlyOursOther: string[];
  onlyTheirs: string[];
}

/** Pairs on pages both tools checked (a page one of them could not load says nothing about rules). */
function compare(ours: Findings, theirs: Findings, pa11yRules: Set<string>): Comparison {
  const checkedByBoth = (key: string) => {
    const path = key.split(' ')[0] as string;
    return !(path in ours.notChecked) && !(path in theirs.notChecked);
  };
  const mine = new Set(ours.violations.filter(checkedByBoth));
  const other = new Set(theirs.violations.filter(checkedByBoth));
  const inFrames = new Set(ours.inFramesOnly);
  const onlyOurs = [...mine].filter((key) => !other.has(key));
  const ruleOf = (key: string) => key.split(' ')[1] as string;
  return {
    same: onlyOurs.length === 0 && [...other].every((key) => mine.has(key)),
    both: [...mine].filter((key) => other.has(key)).length,
    onlyOursInFrames: onlyOurs.filter((key) => inFrames.has(key)).length,
    onlyOursRuleMissingInPa11y: onlyOurs.filter((key) => !inFrames.has(key) && !pa11yRules.has(ruleOf(key))),
    onlyOursOther: onlyOurs.filter((key) => !inFrames.has(key) && pa11yRules.has(ruleOf(key))),
    onlyTheirs: [...other].filter((key) => !mine.has(key)),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

const sample = (keys: string[]) => (keys.length > 0 ? ` e.g. ${keys.slice(0, 5).join(', ')}` : '');

async function main(): Promise<void> {
  const childInput = arg('child');
  if (childInput) {
    await renderInChild(JSON.parse(childInput) as SitewatchInput);
    process.exit(0);
  }
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  const { DEFAULT_RENDER_CONCURRENCY } = await import('@/lib/a11y/engine/render');
  const { chromiumLaunchOptions } = await import('@/lib/a11y/engine/browser');
  const { startA11ySite } = await import('./a11y-site');
  const pages = Number(arg('pages') ?? 200);
  const runs = Number(arg('runs') ?? 3);
  const concurrency = Number(arg('concurrency') ?? DEFAULT_RENDER_CONCURRENCY);
  const { DEFAULT_PASS_BATCH } = await import('@/lib/a11y/runs/pass');
  const batch = Number(arg('batch') ?? DEFAULT_PASS_BATCH);
  const onlySitewatch = arg('only') === 'sitewatch';

  const bin = onlySitewatch ? '' : ensurePa11yCi();
  const axe = onlySitewatch ? null : await pa11yAxe();
  const ourAxe = createRequire(import.meta.url)('axe-core/package.json').version as string;
  // Unpacks @sparticuz/chromium's binary now, so no measured run pays for it.
  const { executablePath } = await chromiumLaunchOptions();
  console.log(machineLine());
  console.log(
    `accessibility render benchmark: ${pages} pages on 127.0.0.1, ${concurrency} at once, ` +
      `${runs} run${runs === 1 ? '' : 's'} of each tool in turns; Sitewatch in batches of ${batch > 0 ? batch : pages} pages\n` +
      `Chromium ${executablePath}; Sitewatch axe-core ${ourAxe}` +
      (axe
        ? `; pa11y-ci ${PA11Y_CI_VERSION} axe-core ${axe.version}, rules added by id: ${axe.extraRules.join(', ')}`
        : '') +
      '\n',
  );

  const site = await startA11ySite(pages);
  const work = mkdtempSync(`${tmpdir()}/sitewatch-a11y-bench-`);
  const ours: Measurement[] = [];
  const theirs: Measurement[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      ours.push(await runSitewatch(site.urls, concurrency, batch, work));
      if (bin) theirs.push(await runPa11yCi(bin, site.urls, concurrency, axe?.extraRules ?? [], work));
      const latest = [ours.at(-1), theirs.at(-1)].filter((m): m is Measurement => Boolean(m));
      console.error(
        `  run ${run + 1}: ${latest.map((m) => `${m.tool} ${m.pagesPerMinute.toFixed(0)} pages/min, ${m.peakRssMb} MB`).join('; ')}`,
      );
    }
  } finally {
    await site.close();
    rmSync(work, { recursive: true, force: true });
  }

  const rows = [...ours, ...theirs]
    .sort((a, b) => (a.tool === b.tool ? 0 : a.tool === 'sitewatch' ? -1 : 1))
    .map((m, i) => [
      m.tool,
      String((i % runs) + 1),
      String(m.pages),
      m.seconds.toFixed(1),
      m.pagesPerMinute.toFixed(0),
      ((m.cpuSeconds / m.pages) * 1000).toFixed(0),
      String(m.peakRssMb),
      String(m.peakPssMb),
      `${m.firstHalfRssMb} / ${m.secondHalfRssMb}`,
      String(m.findings.violations.length),
    ]);
  console.log(
    `\n${table(
      [
        'tool',
        'run',
        'pages',
        'seconds',
        'pages/min',
        'CPU ms/page',
        'peak RSS MB',
        'peak PSS MB',
        'RSS 1st/2nd half',
        'violations',
      ],
      rows,
    )}`,
  );
  console.log(`\nCPU ms per page by process (sampled every ${SAMPLE_MS} ms; processes in brackets):`);
  const kinds = [...new Set([...ours, ...theirs].flatMap((m) => Object.keys(m.cpuByKind)))].sort();
  console.log(
    table(
      ['tool', 'run', ...kinds],
      [...ours, ...theirs].map((m, i) => [
        m.tool,
        String((i % runs) + 1),
        ...kinds.map((kind) => {
          const entry = m.cpuByKind[kind];
          return entry ? `${((entry.seconds / m.pages) * 1000).toFixed(0)} [${entry.processes}]` : '-';
        }),
      ]),
    ),
  );
  for (const m of [...ours, ...theirs]) {
    for (const [path, reason] of Object.entries(m.findings.notChecked).slice(0, 5))
      console.log(`! ${m.tool} did not check ${path}: ${reason}`);
  }

  const oursPerMinute = median(ours.map((m) => m.pagesPerMinute));
  console.log(
    `\nSitewatch: median ${oursPerMinute.toFixed(0)} pages/min (target 60: ${oursPerMinute >= 60 ? 'met' : 'NOT met'}), ` +
      `peak RSS ${Math.max(...ours.map((m) => m.peakRssMb))} MB`,
  );
  if (theirs.length === 0 || !axe) return;
  const ratios = ours.map((m, i) => m.pagesPerMinute / (theirs[i] as Measurement).pagesPerMinute);
  const ratio = median(ratios);
  console.log(
    `pa11y-ci:  median ${median(theirs.map((m) => m.pagesPerMinute)).toFixed(0)} pages/min, peak RSS ${Math.max(...theirs.map((m) => m.peakRssMb))} MB\n` +
      `speed ratio ${ratio.toFixed(2)}x (runs ${ratios.map((r) => r.toFixed(2)).join(', ')}; target 2x: ${ratio >= 2 ? 'met' : 'NOT met'}), ` +
      `peak RSS ratio ${(Math.max(...ours.map((m) => m.peakRssMb)) / Math.max(...theirs.map((m) => m.peakRssMb))).toFixed(2)}x`,
  );

  // Findings: every run of a tool should agree with its other runs, and the tools with each other.
  console.log(
    `\nviolations, as (page, rule) pairs: Sitewatch's runs ${steadiness(ours)}; pa11y-ci's runs ${steadiness(theirs)}`,
  );
  for (let run = 0; run < ours.length; run++) {
    const mine = ours[run] as Measurement;
    const other = theirs[run] as Measurement;
    console.log(
      `run ${run + 1}: ${agreement(compare(mine.findings, other.findings, axe.ruleIds), axe.version)}`,
    );
  }
}

/** Whether a tool's runs found the same pairs; if not, the pairs that came and went. */
function steadiness(list: Measurement[]): string {
  const sets = list.map((m) => new Set(m.findings.violations));
  const all = new Set(sets.flatMap((set) => [...set]));
  const varying = [...all].filter((key) => !sets.every((set) => set.has(key)));
  return varying.length === 0 ? 'all equal' : `DIFFER in ${varying.length} pairs${sample(varying)}`;
}

function agreement(c: Comparison, pa11yAxe: string): string {
  const explained = c.onlyOursOther.length === 0 && c.onlyTheirs.length === 0;
  return (
    `${c.same ? 'same violations' : explained ? 'same violations in what both check' : 'DIFFERENT violations'}: ` +
    `${c.both} pairs found by both\n` +
    `  only Sitewatch, inside iframes (pa11y runs axe in the top document only): ${c.onlyOursInFrames}\n` +
    `  only Sitewatch, rules pa11y's axe-core ${pa11yAxe} does not have: ${c.onlyOursRuleMissingInPa11y.length}${sample(c.onlyOursRuleMissingInPa11y)}\n` +
    `  only Sitewatch, otherwise: ${c.onlyOursOther.length}${sample(c.onlyOursOther)}\n` +
    `  only pa11y-ci: ${c.onlyTheirs.length}${sample(c.onlyTheirs)}`
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
