/**
 * The routes' entry to sign-in and accounts: the better-auth instance mounted at /api/auth, and a person's
 * own sessions. Each is defined by the module that owns it.
 */
export { getAuth } from './auth';
export { endAccountSession, listAccountSessions, sessionOwner } from './sessions';
