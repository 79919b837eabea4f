'use client';

import { createContext, type ReactNode, useContext } from 'react';
import type { ProbedFrom } from '@/lib/uptime/types';
import { type Places, placesFor } from './words';

/*
 * Where the probes ran, as the Uptime pages name it: the page (a server component) reads
 * lib/uptime probeLocations() and provides it here, and every part that names a region reads it
 * back, so no part of the page can say "Europe" while the probes ran on this one server.
 */
const ProbedFromContext = createContext<ProbedFrom>('server');

export function ProbePlaces({ probedFrom, children }: { probedFrom: ProbedFrom; children: ReactNode }) {
  return <ProbedFromContext.Provider value={probedFrom}>{children}</ProbedFromContext.Provider>;
}

export const usePlaces = (): Places => placesFor(useContext(ProbedFromContext));
