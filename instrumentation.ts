/**
 * Runs once when the server process starts: opens the database (applying migrations) and, on the
 * embedded defaults, starts the in-process job runner that resumes interrupted work.
 *
 * A boot that fails (a refused setting, a database that cannot open) ends the process with the reason:
 * left running, Next would print "Ready" and answer every page with a 500.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { boot } = await import('./jobs/boot');
  try {
    await boot();
  } catch (error) {
    console.error(`sitewatch: cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
