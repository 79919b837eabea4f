import { regionHandler } from '@/lib/api/uptime-region';

// Probe region `eu`: its own Vercel function, pinned to fra1 by vercel.json's `functions` (a route's
// `preferredRegion` is dropped by the Vercel builder for Node functions; README, "Deploy on Vercel").

/** A batch of 500 targets may take three waves of a worst-case probe (lib/uptime/batch.ts). */
export const maxDuration = 300;

export const POST = regionHandler('eu');
