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
 *   after page pays for the compile once; it is set up (`LOAD_AXE`) only in the documents it
 *   checks. An isolated world shares the frame's DOM and layout, which is all axe reads, but not
 *   its JavaScript globals: the page can neither see nor replace `axe` (a site bundling its own
 *   axe-core, or any script with a global named `axe`, changes nothing), and the page's Content
 *   Security Policy does not apply to it.
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
import { FRAME_FINGERPRINT, type FrameCache } from './frame-cache';

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
 * How `runPartial` writes down each element it reports (axe's documented custom node serializer):
 * as axe's own `DqElement.toJSON()` does, but with an empty XPath. `runPartial` serializes every
 * element every rule looked at, passes included, and axe's XPath walks the element's ancestors and
 * runs a `querySelectorAll('#id')` for each one with an id (on the benchmark's pages about 2% of
 * the renderer CPU axe takes, 5 of 280 ms for a page's top document). Nothing reads it:
 * `finishRun` puts `xpath` in the report only with the `xpath` run option, which the render pass
 * never sets, and axe merges a frame's XPath into its elements' (`mergeSpecs`, which needs an
 * array) for that report alone. Selector, HTML and ancestry (which
 * some rules' cross-frame checks compare, e.g. `heading-order`, `region`) are kept as axe made them,
 * so the report is the same (tests/integration/a11y-render.test.ts compares it with AxeBuilder's).
 */
const NODE_SPEC_WITHOUT_XPATH = `{
  toSpec: (element) => ({
    selector: element.selector,
    source: element.source,
    xpath: [],
    ancestry: element.ancestry,
    nodeIndexes: element.nodeIndexes,
    fromFrame: element.fromFrame,
  }),
}`;

/** Where a document's axe world keeps the function that sets axe up in it (LOAD_AXE). */
const AXE_LOADER = '__sitewatchLoadAxe';

/**
 * What Chromium evaluates in the axe world of every new document: axe's source wrapped in a
 * function, run (`LOAD_AXE`) only in the documents axe checks. Setting axe up (its rules, checks
 * and locale, for every document) cost 10-15 ms of the renderer's time per document, and most
 * documents a tab sees are never checked: the `about:blank` it rests on between pages, each frame's
 * initial empty document, and the frames whose result the run's frame cache already holds. Wrapped,
 * the source is still compiled once per renderer (V8 keeps it), and a document that is not checked
 * pays only for defining one function: on the benchmark's pages, without axe run at all, the world
 * script took the load of 100 pages from 8.8 to 11.6-12.7 s of wall time on two cores.
 */
const WORLD_SCRIPT = `globalThis.${AXE_LOADER} = () => {
${axe.source}
axe.configure(${JSON.stringify(CONFIGURE)});
axe.utils.nodeSerializer.update(${NODE_SPEC_WITHOUT_XPATH});
};`;

/** Sets axe up in the world it is evaluated in, once; false where the world script never ran. */
const LOAD_AXE = `(typeof axe === 'object' || (typeof globalThis.${AXE_LOADER} === 'function' && (globalThis.${AXE_LOADER}(), true)))`;

type FrameContexts = { frameSelector: unknown; frameContext: unknown }[];

interface FrameRun {
  /** The frame's axe world, where its partial result waits under `PARTIAL`. */
  world: number;
  /** Per nested frame axe listed, in its order; null where the frame could not be checked. */
  children: (FrameRun | null)[];
  /** The partial result of an identical frame checked earlier in the run (lib/a11y/engine/frame-cache.ts). */
  cached?: string;
  /** Where this frame's partial result goes in the run's frame cache once it arrives. */
  cacheKey?: string;
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
   * Elements in the tab's top document, counted in axe's world, where the page's scripts cannot
   * answer for the DOM (lib/a11y/engine/sandbox.ts bounds the DOM axe is run on).
   */
  async topElementCount(): Promise<number> {
    const world = () =>
      this.session.send('Page.createIsolatedWorld', { frameId: this.topFrameId, worldName: AXE_WORLD });
    const { executionContextId } = await world().catch(async () => {
      // Should the main frame's id ever change, it is asked for again (as `analyze` does).
      const { frameTree } = await this.session.send('Page.getFrameTree');
      this.topFrameId = frameTree.frame.id;
      return world();
    });
    return Number(await this.evaluate(executionContextId, "document.getElementsByTagName('*').length"));
  }

  /**
   * Runs axe with `options` in the tab's document and all its frames, and merges the frames'
   * partial results with `finishRun` in the top document's axe world; rejects if the top document
   * fails. Only the nested frames' partial results cross the protocol (as JSON text, never parsed
   * here), and the report comes back once. `frames`: the run's cache of frame results
   * (lib/a11y/engine/frame-cache.ts), if any.
   */
  async analyze(options: RunOptions, frames?: FrameCache): Promise<AxeResults> {
    const context = { include: [], exclude: [] };
    const top = await this.runFrame(this.topFrameId, context, options, frames, true).catch(async () => {
      // Should the main frame's id ever change, it is asked for again.
      const { frameTree } = await this.session.send('Page.getFrameTree');
      this.topFrameId = frameTree.frame.id;
      return this.runFrame(this.topFrameId, context, options, frames, true);
    });
    const nested = await Promise.all(top.children.map((child) => this.partialsOf(child, frames)));
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
   * depth first, in the frames nested in it. `frames`: the run's frame cache; a nested frame (never
   * the top document) the cache has seen identical gets its partial result from there, and axe
   * does not run in it.
   */
  private async runFrame(
    frameId: string,
    context: unknown,
    options: RunOptions,
    frames: FrameCache | undefined,
    top: boolean,
  ): Promise<FrameRun> {
    const cache = top ? undefined : frames;
    const { executionContextId: world } = await this.session.send('Page.createIsolatedWorld', {
      frameId,
      worldName: AXE_WORLD,
    });
    // A nested frame with no frames of its own is first only fingerprinted (`begin(true)`), before
    // axe is set up in it: axe starts there unless the run's cache holds an identical frame's result.
    // The fingerprint is null wherever the document has frames (or shadow roots, which could hold
    // them), so a frame it names has none for axe to list. It is taken again in the same task as
    // `runPartial` starts, so the stored result is keyed by the document axe checked, even if the
    // page changed it between the two calls.
    const begin = (probe: boolean) => `(() => {
      if (${probe}) {
        const fingerprint = ${FRAME_FINGERPRINT};
        if (fingerprint) return { frames: [], fingerprint, started: false };
      }
      if (!${LOAD_AXE}) return null;
      const context = ${JSON.stringify(context)};
      const frames = axe.utils.getFrameContexts(context);
      const fingerprint = ${cache ? `frames.length === 0 ? ${FRAME_FINGERPRINT} : null` : 'null'};
      globalThis.${PARTIAL} = axe.runPartial(context, ${JSON.stringify(options)});
      globalThis.${PARTIAL}.catch(() => {});
      return { frames, fingerprint, started: true };
    })()`;
    type Begun = { frames: FrameContexts; fingerprint: string | null; started: boolean };
    const keyOf = (fingerprint: string | null) =>
      fingerprint ? `${JSON.stringify(context)} ${fingerprint}` : undefined;
    let begun = (await this.evaluate(world, begin(Boolean(cache)))) as Begun | null;
    if (begun && !begun.started) {
      const cached = cache?.get(keyOf(begun.fingerprint) as string);
      if (cached) return { world, children: [], cached };
      begun = (await this.evaluate(world, begin(false))) as Begun | null;
    }
    if (!begun) {
      // A frame Chromium created without running the tab's scripts (one whose document its parent
      // wrote): axe is put there now, and set up. The top document has the page's whole time limit.
      const injected = this.evaluate(world, `${WORLD_SCRIPT}\n${LOAD_AXE}`);
      await (top ? injected : withLimit(injected, FRAME_INJECT_LIMIT_MS));
      begun = (await this.evaluate(world, begin(false))) as Begun;
    }
    const children: (FrameRun | null)[] = [];
    for (const { frameSelector, frameContext } of begun.frames) {
      let child: FrameRun | null = null;
      try {
        const childId = await this.frameIdOf(world, frameSelector);
        if (childId) child = await this.runFrame(childId, frameContext, options, frames, false);
      } catch {
        // A frame that went away or would not take axe: axe's merge leaves a gap for it, as AxeBuilder.
      }
      children.push(child);
    }
    return { world, children, cacheKey: keyOf(begun.fingerprint) };
  }

  /**
   * A nested frame's partial result and its own nested frames', as JSON texts in the order
   * `finishRun` expects (a frame, then its nested frames depth first); `null` for a frame whose
   * run failed, which drops the frames inside it too, as AxeBuilder does.
   */
  private async partialsOf(run: FrameRun | null, frames?: FrameCache): Promise<string[]> {
    if (!run) return ['null'];
    if (run.cached) return [run.cached];
    try {
      const own = (await this.evaluate(
        run.world,
        `globalThis.${PARTIAL}.then((partial) => JSON.stringify(partial))`,
      )) as string;
      // A rule that failed in this frame (an `error` in its result) is not kept for the next pages.
      if (run.cacheKey && !own.includes('"error"')) frames?.set(run.cacheKey, own);
      const nested = await Promise.all(run.children.map((child) => this.partialsOf(child, frames)));
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
