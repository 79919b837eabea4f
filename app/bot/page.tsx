import type { Metadata } from 'next';
import { StandalonePage } from '@/components/shell/standalone-page';

export const metadata: Metadata = {
  title: 'SitewatchBot',
  description: 'What SitewatchBot is, what it fetches, and how to control it.',
};

/** Linked from the crawler's user-agent: "SitewatchBot/1.0 (+<base url>/bot)". Static on purpose. */
export default function BotPage() {
  return (
    <StandalonePage mainClassName="mx-auto w-full max-w-2xl flex-1 px-6 pt-8 pb-24">
      <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">SitewatchBot</h1>
      <p className="mt-3 text-zinc-700">
        SitewatchBot is the crawler of Sitewatch, a website monitoring service. It visits a site only because
        someone registered that site in Sitewatch to find its broken links, SEO and accessibility problems,
        and to watch its uptime.
      </p>

      <h2 className="mt-10 text-xl font-semibold text-zinc-900">How to recognize it</h2>
      <p className="mt-2 text-zinc-700">Every request carries this user-agent:</p>
      <pre className="mt-2 overflow-x-auto rounded-md border border-zinc-200 bg-white px-4 py-3 font-mono text-sm text-zinc-900">
        SitewatchBot/1.0 (+https://&lt;sitewatch host&gt;/bot)
      </pre>

      <h2 className="mt-10 text-xl font-semibold text-zinc-900">What it does</h2>
      <ul className="mt-2 list-disc space-y-2 pl-6 text-zinc-700">
        <li>
          Crawls pages on the registered hostname only, following links found in HTML and the sitemaps listed
          in <code className="font-mono text-sm">robots.txt</code>.
        </li>
        <li>
          Checks each link target once per crawl, including links to other sites, with a lightweight request
          that reads as little of the response as it can.
        </li>
        <li>
          Keeps a bounded number of requests in flight and slows down when a server answers slowly or with
          errors.
        </li>
        <li>
          Honors <code className="font-mono text-sm">robots.txt</code> rules for the SitewatchBot user-agent
          and for *.
        </li>
        <li>Never submits forms, signs in, or follows links that would change anything.</li>
      </ul>

      <h2 className="mt-10 text-xl font-semibold text-zinc-900">How to control it</h2>
      <p className="mt-2 text-zinc-700">
        To keep SitewatchBot out of part or all of your site, add rules to your{' '}
        <code className="font-mono text-sm">robots.txt</code>:
      </p>
      <pre className="mt-2 overflow-x-auto rounded-md border border-zinc-200 bg-white px-4 py-3 font-mono text-sm text-zinc-900">
        {'User-agent: SitewatchBot\nDisallow: /private/'}
      </pre>
      <p className="mt-4 text-zinc-700">
        If you run the site and did not register it, the owner of the Sitewatch account that did can remove
        it; until then, robots.txt rules take effect on the next crawl.
      </p>
    </StandalonePage>
  );
}
