import { regionHandler } from '@/lib/api/uptime-region';

/** Probe region `oc`, pinned to Vercel's syd1 (README, "Uptime": hosted regions). */
export const preferredRegion = 'syd1';
/** A batch of 500 targets may take three waves of a worst-case probe (lib/uptime/batch.ts). */
export const maxDuration = 300;

export const POST = regionHandler('oc');
