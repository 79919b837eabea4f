/**
 * Runs once when the server process starts: opens the database (applying migrations) and, on the
 * embedded defaults, starts the in-process job runner that resumes interrupted work.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { boot } = await import('./jobs/boot');
  await boot();
}
