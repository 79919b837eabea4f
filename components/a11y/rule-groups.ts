import type { A11yFinding, A11yReport } from '@/components/api/types';
import { type A11yNode, parseNodes } from '@/lib/a11y/report/findings';

export type Impact = 'critical' | 'serious' | 'moderate' | 'minor';
export const IMPACTS: readonly Impact[] = ['critical', 'serious', 'moderate', 'minor'];
const impactRank: Record<Impact, number> = { critical: 0, serious: 1, moderate: 2, minor: 3 };

/** One finding of a rule on one page, its example nodes decoded. */
export interface RulePage {
  finding: A11yFinding;
  nodes: A11yNode[];
}

/** All findings of one rule and type across the run's pages: one row of the issues table. */
export interface RuleGroup {
  rule: string;
  type: A11yFinding['type'];
  impact: Impact | null;
  help: string;
  description: string;
  helpUrl: string;
  w3cUrl: string | null;
  sc: string | null;
  wcag: string | null;
  level: 'A' | 'AA' | 'AAA' | null;
  /** Score points the site gains if the rule passed everywhere (violations only). */
  gain: number;
  elements: number;
  pages: RulePage[];
}

/**
 * The report's findings of one type grouped by rule. Confirmed violations and "needs review" are
 * grouped separately on purpose: the tab shows them in separate lists and never mixes the two.
 */
export function groupByRule(report: A11yReport, type: A11yFinding['type']): RuleGroup[] {
  const groups = new Map<string, RuleGroup>();
  for (const finding of report.issues) {
    if (finding.type !== type) continue;
    let group = groups.get(finding.rule);
    if (!group) {
      group = {
        rule: finding.rule,
        type,
        impact: finding.impact,
        help: finding.help,
        description: report.descriptions[finding.rule] ?? finding.help,
        helpUrl: finding.help_url,
        w3cUrl: report.w3cUrls[finding.rule] ?? null,
        sc: finding.sc,
        wcag: finding.wcag,
        level: finding.standards.wcagLevel,
        gain: type === 'violation' ? (report.gainByRule[finding.rule] ?? 0) : 0,
        elements: 0,
        pages: [],
      };
      groups.set(finding.rule, group);
    }
    // A rule's impact can differ by page (axe rates each node): the group shows the worst.
    if (finding.impact && (!group.impact || impactRank[finding.impact] < impactRank[group.impact])) {
      group.impact = finding.impact;
    }
    group.elements += finding.count;
    group.pages.push({ finding, nodes: parseNodes(finding.nodes) });
  }
  return [...groups.values()];
}

export type RuleSort = 'gain' | 'impact' | 'pages' | 'rule';

export const RULE_SORTS: Record<RuleSort, string> = {
  gain: 'Score gain',
  impact: 'Impact',
  pages: 'Pages affected',
  rule: 'Rule id',
};

const byImpact = (a: RuleGroup, b: RuleGroup) =>
  (a.impact ? impactRank[a.impact] : 4) - (b.impact ? impactRank[b.impact] : 4);

/** Orders rule groups; ties fall back to impact, then pages, then rule id, so the order is stable. */
export function sortRuleGroups(groups: readonly RuleGroup[], sort: RuleSort): RuleGroup[] {
  const tieBreak = (a: RuleGroup, b: RuleGroup) =>
    byImpact(a, b) || b.pages.length - a.pages.length || a.rule.localeCompare(b.rule);
  const primary: Record<RuleSort, (a: RuleGroup, b: RuleGroup) => number> = {
    gain: (a, b) => b.gain - a.gain,
    impact: byImpact,
    pages: (a, b) => b.pages.length - a.pages.length,
    rule: (a, b) => a.rule.localeCompare(b.rule),
  };
  return [...groups].sort((a, b) => primary[sort](a, b) || tieBreak(a, b));
}

export interface RuleFilter {
  impact: Impact | 'all';
  level: 'A' | 'AA' | 'AAA' | 'best-practice' | 'all';
  text: string;
}

export function filterRuleGroups(groups: readonly RuleGroup[], filter: RuleFilter): RuleGroup[] {
  const text = filter.text.trim().toLowerCase();
  return groups.filter(
    (g) =>
      (filter.impact === 'all' || g.impact === filter.impact) &&
      (filter.level === 'all' ||
        (filter.level === 'best-practice' ? g.level === null : g.level === filter.level)) &&
      (text === '' ||
        [g.rule, g.help, g.description, g.sc ?? '', ...g.pages.map((p) => p.finding.page_url)].some((s) =>
          s.toLowerCase().includes(text),
        )),
  );
}
