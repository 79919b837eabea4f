/**
 * axe-core in every frame of a page, results merged: what `@axe-core/playwright`'s
 * `AxeBuilder.analyze()` does, step for step (axe in each frame, `axe.runPartial` in each, the
 * frames' partial results in axe's order, then `axe.finishRun`), with differences that make it
 * several times cheaper per page and change no result (tests/integration/a11y-render.test.ts
 * compares every field with AxeBuilder's on the same pages):
 *
 * - axe lives in an isolated world of its own in every frame (`AXE_WORLD`), put there by Chromium
 *   itself when each document is created (`Page.addScriptToEvaluateOnNewDocument`, registered once
 *   per tab), instead of its 1.5 MB source being sent through the DevTools protocol and compiled
 *   again for every frame of every page: V8 keeps the compiled script, so a tab that renders page
 *   after page pays for the compile once. An isolated world shares the frame's DOM and layout, which
 *   is all axe reads, but not its JavaScript globals: the page can neither see nor replace `axe`
 *   (a site bundling its own axe-core, or any script with a global named `axe`, changes nothing),
 *   and the page's Content Security Policy does not apply to it.
 * - `finishRun` runs in the top document's axe world, where the top document's partial result
 *   already is, instead of in a fresh blank page with axe compiled a third time and every partial
 *   result shipped into it. AxeBuilder uses the blank page to keep what nested cross-origin frames
 *   report out of the audited page's reach; the isolated world does the same, since the page's
 *   scripts cannot read it. The top document's partial result (250 KB of JSON on an ordinary page)
 *   never crosses the protocol; nested frames' cross it once each, as JSON text that Node passes on
 *   without parsing, and the report comes back once.
 * - Values cross the protocol as JSON text rather than as Playwright's serialized values, which
 *   cost ten times as much on axe's results.
 */
import axe, { type AxeResults, type RunOptions } from 'axe-core';
import type { CDPSession, Page } from 'playwright-core';

/** The isolated world axe runs in, in every frame (the name is Chromium's key for it per frame). */
export const AXE_WORLD = 'sitewatch-axe';

/**
 * Limit on putting axe into a frame that does not have it yet. AxeBuilder
 * allows 1 s for every frame; compiling axe took longer than that on a loaded 2-core machine, and a
 * frame skipped that way reads as `frame-tested` (needs review) with its real findings lost.
 */
const FRAME_INJECT_LIMIT_MS = 5_000;

/**
 * As AxeBuilder configures the frames and its blank page: frames talk to same-origin frames only,
 * and help URLs carry `application=playwright`. Set in every frame's axe world, whose top document
 * then makes the same report AxeBuilder's blank page makes.
 */
const CONFIGURE = {
  allowedOrigins: ['<same_origin>'],
  branding: { application: 'playwright' },
};

/**
 * What Chromium evaluates in the axe world of every new document. The top-level `about:blank` the
 * tab rests on between pages (lib/a11y/lane.ts) is never checked and skips it; a frame's
 * `about:blank` (a widget its parent writes into) gets axe like any frame.
 */
const WORLD_SCRIPT = `if (window !== window.top || location.href !== 'about:blank') {
${axe.source}
axe.configure(${JSON.stringify(CONFIGURE)});
}`;

type FrameContexts = { frameSelector: unknown; frameContext: unknown }[];

interface FrameRun {
  /** The frame's axe world, where its partial result waits under `PARTIAL`. */
  world: number;
  /** Per nested frame axe listed, in its order; null where the frame could not be checked. */
  children: (FrameRun | null)[];
}

/** Where a frame's world keeps the promise of its `runPartial` (the page cannot see the world). */
const PARTIAL = '__sitewatchPartial';

/**
 * A tab's axe: its own DevTools session on the tab, which registers axe's world script once and
 * then checks whatever document the tab shows, as often as it is asked.
 */
export class AxeTab {
  private constructor(
    readonly session: CDPSession,
    /** The tab's main frame, whose id stays the same from one document to the next. */
    private topFrameId: string,
  ) {}

  /** Registers axe's world on `page`: every document the tab loads from now on has axe. */
  static async attach(page: Page): Promise<AxeTab> {
    const session = await page.context().newCDPSession(page);
    // Chromium evaluates a session's new-document scripts only while its Page domain is enabled.
    await session.send('Page.enable');
    await session.send('Page.addScriptToEvaluateOnNewDocument', {
      source: WORLD_SCRIPT,
      worldName: AXE_WORLD,
    });
    const { frameTree } = await session.send('Page.getFrameTree');
    return new AxeTab(session, frameTree.frame.id);
  }

  /**
   * Runs axe with `options` in the tab's document and all its frames, and merges the frames'
   * partial results with `finishRun` in the top document's axe world; rejects if the top document
   * fails. Only the nested frames' partial results cross the protocol (as JSON text, never parsed
   * here), and the report comes back once.
   */
  async analyze(options: RunOptions): Promise<AxeResults> {
    const context = { include: [], exclude: [] };
    const top = await this.runFrame(this.topFrameId, context, options, true).catch(async () => {
      // Should the main frame's id ever change, it is asked for again.
      const { frameTree } = await this.session.send('Page.getFrameTree');
      this.topFrameId = frameTree.frame.id;
      return this.runFrame(this.topFrameId, context, options, true);
    });
    const nested = await Promise.all(top.children.map((child) => this.partialsOf(child)));
    const report = (await this.evaluate(
      top.world,
      `globalThis.${PARTIAL}
        .then((own) => axe.finishRun([own, ${nested.flat().join(', ')}], ${JSON.stringify(options)}))
        .then((report) => JSON.stringify(report))`,
    )) as string;
    return JSON.parse(report) as AxeResults;
  }

  /**
   * Starts axe in a frame (`getFrameContexts`, then `runPartial`, as AxeBuilder does them) and,
   * depth first, in the frames nested in it.
   */
  private async runFrame(
    frameId: string,
    context: unknown,
    options: RunOptions,
    top: boolean,
  ): Promise<FrameRun> {
    const { executionContextId: world } = await this.session.send('Page.createIsolatedWorld', {
      frameId,
      worldName: AXE_WORLD,
    });
    const start = `(() => {
      if (typeof axe !== 'object') return null;
      const context = ${JSON.stringify(context)};
      const frames = axe.utils.getFrameContexts(context);
      globalThis.${PARTIAL} = axe.runPartial(context, ${JSON.stringify(options)});
      globalThis.${PARTIAL}.catch(() => {});
      return frames;
    })()`;
    let frameContexts = (await this.evaluate(world, start)) as FrameContexts | null;
    if (!frameContexts) {
      // A frame Chromium created without running the tab's scripts (one whose document its parent
      // wrote): axe is put there now. The top document has the page's whole time limit.
      const injected = this.evaluate(world, WORLD_SCRIPT);
      await (top ? injected : withLimit(injected, FRAME_INJECT_LIMIT_MS));
      frameContexts = (await this.evaluate(world, start)) as FrameContexts;
    }
    const children: (FrameRun | null)[] = [];
    for (const { frameSelector, frameContext } of frameContexts) {
      let child: FrameRun | null = null;
      try {
        const childId = await this.frameIdOf(world, frameSelector);
        if (childId) child = await this.runFrame(childId, frameContext, options, false);
      } catch {
        // A frame that went away or would not take axe: axe's merge leaves a gap for it, as AxeBuilder.
      }
      children.push(child);
    }
    return { world, children };
  }

  /**
   * A nested frame's partial result and its own nested frames', as JSON texts in the order
   * `finishRun` expects (a frame, then its nested frames depth first); `null` for a frame whose
   * run failed, which drops the frames inside it too, as AxeBuilder does.
   */
  private async partialsOf(run: FrameRun | null): Promise<string[]> {
    if (!run) return ['null'];
    try {
      const own = (await this.evaluate(
        run.world,
        `globalThis.${PARTIAL}.then((partial) => JSON.stringify(partial))`,
      )) as string;
      const nested = await Promise.all(run.children.map((child) => this.partialsOf(child)));
      return [own, ...nested.flat()];
    } catch {
      return ['null'];
    }
  }

  /** The frame id of the frame element axe names with `frameSelector`, or null if there is none. */
  private async frameIdOf(world: number, frameSelector: unknown): Promise<string | null> {
    const { result, exceptionDetails } = await this.session.send('Runtime.evaluate', {
      expression: `axe.utils.shadowSelect(${JSON.stringify(frameSelector)})`,
      contextId: world,
    });
    if (exceptionDetails || !result.objectId) return null;
    // The element's handle is not released: it goes with the document, which the tab leaves next.
    const { node } = await this.session.send('DOM.describeNode', { objectId: result.objectId });
    return node.frameId ?? null;
  }

  /** Evaluates `expression` in a world, awaiting a promise, and answers its value (JSON-able). */
  private async evaluate(contextId: number, expression: string): Promise<unknown> {
    const { result, exceptionDetails } = await this.session.send('Runtime.evaluate', {
      expression,
      contextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) {
      throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    }
    return result.value;
  }
}

function withLimit<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Script Timeout')), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
