import { serve } from 'inngest/next';
import { inngest } from '@/jobs/client';
import { functions } from '@/jobs/functions';

/**
 * Inngest (Cloud, or a self-hosted server) registers and calls the app's functions here in hosted
 * mode. Without Inngest configured the embedded runner executes the same functions in-process and
 * this endpoint is unused.
 */
export const { GET, POST, PUT } = serve({ client: inngest, functions: [...functions] });

/**
 * Each call runs one step; steps are time-boxed well below this (see the crawl loop), so the limit
 * only needs headroom. 300s is the ceiling every Vercel plan allows with fluid compute.
 */
export const maxDuration = 300;
