import { CADENCE_FLOOR_MINUTES } from './limits';

/**
 * The cadence floor on edits. Creation always enforces >= CADENCE_FLOOR_MINUTES, but rows may exist
 * below it (created before the floor, or imported). The spec: such a site "keeps or slows its cadence
 * but cannot go more frequent". So a requested cadence is accepted when
 *   - it is >= CADENCE_FLOOR_MINUTES, or
 *   - the stored cadence is below the floor and the request is >= the stored cadence
 *     (keep it, or slow down while still below the floor).
 * In other words the effective floor is min(stored, CADENCE_FLOOR_MINUTES).
 * `current` is null when nothing is stored; then the plain floor applies.
 * Returns the refusal (to follow the field name), or null when acceptable.
 */
export function checkCadence(requested: number, current: number | null): string | null {
  if (requested >= CADENCE_FLOOR_MINUTES) return null;
  if (current !== null && current < CADENCE_FLOOR_MINUTES) {
    if (requested >= current) return null;
    return `must be at least ${CADENCE_FLOOR_MINUTES}, or at least this site's current ${current} (it was created below the floor and cannot go more frequent)`;
  }
  return `must be at least ${CADENCE_FLOOR_MINUTES}`;
}
