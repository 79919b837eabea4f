/**
 * axe-core in every frame of a page, results merged: what `@axe-core/playwright`'s
 * `AxeBuilder.analyze()` does, step for step (axe injected into each frame, `axe.runPartial` in
 * each, the frames' partial results in axe's order, then `axe.finishRun`), but with `finishRun` in
 * this Node process instead of in a fresh blank page of the browser.
 *
 * Why: AxeBuilder opens a new page per check, compiles axe's 550 KB script into it a third time,
 * ships the partial results back into it and merges them there. On the 2-core benchmark machine
 * that was 1 to 1.5 s of every page's ~2 s. `finishRun` is axe's own code working on the partial
 * results alone (merging, rules' `after` steps, metadata, report): it needs no page, and here it
 * runs on the same axe-core build the frames were given (`axe.source` of this package) in 10 to
 * 100 ms. The results are the same object AxeBuilder returns (tests/integration/a11y-render.test.ts
 * compares the two on the same pages).
 */
import axe, { type AxeResults, type PartialResult, type RunOptions } from 'axe-core';
import type { Frame, Page } from 'playwright-core';

/**
 * Limit on injecting axe into a child frame (a frame busy in a script loop never takes it).
 * AxeBuilder allows 1 s; compiling axe's 550 KB in a frame took longer than that on a loaded 2-core
 * machine, and a frame skipped that way reads as `frame-tested` (needs review) with its real
 * findings lost. 5 s still bounds a frame that will never answer, inside the page's 30 s.
 */
const FRAME_INJECT_LIMIT_MS = 5_000;

/**
 * As AxeBuilder configures the frames and its blank page: frames talk to same-origin frames only,
 * and help URLs carry `application=playwright`. Set once on this process's axe, which then makes
 * the same report the blank page would have made.
 */
const CONFIGURE = {
  allowedOrigins: ['<same_origin>'],
  branding: { application: 'playwright' },
};
axe.configure({ branding: CONFIGURE.branding });

/** The page's axe, in functions evaluated in a frame (they run there and can reach no module scope). */
type InPage = { axe: typeof axe };

interface FrameRun {
  /** The frame's `runPartial`, awaited only once every nested frame has started. */
  partial: Promise<PartialResult>;
  /** Per nested frame axe listed, in its order; null where the frame could not be checked. */
  children: (FrameRun | null)[];
}

/** Runs axe with `options` in the page and all its frames; rejects if the top document fails. */
export async function analyzePage(page: Page, options: RunOptions): Promise<AxeResults> {
  await page.evaluate(axe.source);
  const context = { include: [], exclude: [] };
  const top = await runFrame(page.mainFrame(), context, options);
  const partials = await collect(top, true);
  return axe.finishRun(partials as PartialResult[], options);
}

async function runFrame(frame: Frame, context: unknown, options: RunOptions): Promise<FrameRun> {
  const frameContexts = await frame.evaluate(
    ({ context }) => (window as unknown as InPage).axe.utils.getFrameContexts(context as never),
    { context },
  );
  const partial = frame.evaluate(
    ({ context, options }) =>
      (window as unknown as InPage).axe.runPartial(context as never, options as RunOptions),
    { context, options: options as Record<string, unknown> },
  );
  // Awaited later (collect); until then a rejection is not "unhandled".
  partial.catch(() => {});
  const children: (FrameRun | null)[] = [];
  for (const { frameSelector, frameContext } of frameContexts) {
    let child: FrameRun | null = null;
    try {
      const handle = await frame.evaluateHandle(
        ({ frameSelector }) => (window as unknown as InPage).axe.utils.shadowSelect(frameSelector as never),
        { frameSelector: frameSelector as unknown },
      );
      const childFrame = await handle.asElement()?.contentFrame();
      if (childFrame) {
        await inject(childFrame);
        child = await runFrame(childFrame, frameContext, options);
      }
    } catch {
      // A frame that went away or would not take axe: axe's merge leaves a gap for it, as AxeBuilder.
    }
    children.push(child);
  }
  return { partial, children };
}

async function inject(frame: Frame): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Script Timeout')), FRAME_INJECT_LIMIT_MS);
  });
  try {
    await Promise.race([frame.evaluate(axe.source), limit]);
  } finally {
    clearTimeout(timer);
  }
  await frame.evaluate(
    (settings) => (window as unknown as InPage).axe.configure(settings as never),
    CONFIGURE,
  );
}

/**
 * The partial results in the order `finishRun` expects (a frame, then its nested frames' depth
 * first), null for a nested frame whose run failed; the top document's failure fails the page.
 */
async function collect(run: FrameRun, top: boolean): Promise<(PartialResult | null)[]> {
  try {
    const own = await run.partial;
    const nested = await Promise.all(
      run.children.map((child) => (child ? collect(child, false) : Promise.resolve([null]))),
    );
    return [own, ...nested.flat(1)];
  } catch (err) {
    if (top) throw err;
    return [null];
  }
}
