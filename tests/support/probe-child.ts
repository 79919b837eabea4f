import { probeOnce } from '@/lib/uptime/probe';

/*
 * One probe in a process of its own, its result printed as JSON: `tsx tests/support/probe-child.ts
 * <url>`. Node reads NODE_EXTRA_CA_CERTS only at start-up, so a test that needs a certificate the
 * probe trusts (a local CA it generated) starts this with that variable set.
 */
const url = process.argv[2];
if (!url) throw new Error('usage: probe-child.ts <url>');
const result = await probeOnce({ monitorId: 'child', url, timeoutSeconds: 10 }, { allowPrivate: true });
process.stdout.write(JSON.stringify(result));
