import { regionHandler } from '@/lib/api/uptime-region';

/** Probe region `na`, pinned to Vercel's iad1 (README, "Uptime": hosted regions). */
export const preferredRegion = 'iad1';
/** A batch of 500 targets may take three waves of a worst-case probe (lib/uptime/batch.ts). */
export const maxDuration = 300;

export const POST = regionHandler('na');
