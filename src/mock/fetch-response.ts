/**
 * Mock answers as Fetch Responses, the way the msw handlers make them (msw's HttpResponse). Apart
 * from ./wire.ts so that msw is loaded only where a Response is built: the node:http adapter's
 * direct path (./server.ts) writes plain answers without one, and loads this module (and msw) only
 * for an answer a Response would change, or for the msw path.
 */
import { HttpResponse } from 'msw';
import type { MockResponse } from './fault-types.js';
import type { ReplayHit } from './replay.js';

/** The msw handlers' way of turning a plain response into a Fetch Response. */
export function toResponse(r: MockResponse): Response {
  return new HttpResponse(r.body as BodyInit, { status: r.status, headers: r.headers });
}

/**
 * A recorded answer as a Fetch Response: the recorded status, headers (without the connection's own) and body bytes.
 */
export function replayResponse(hit: ReplayHit): Response {
  const { status, headers, body } = hit.responseParts();
  return new HttpResponse(body, { status, headers });
}
