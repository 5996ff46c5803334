/**
 * The reference mock: public API, the package's `accommodation-conformance/mock` entry point.
 * `createHandlers(options)` gives msw handlers (`setupServer(...createHandlers())`), `startMock`
 * a node:http server; `faults` (FAULTS), `vary` and `stateless` are options of both. Each call is
 * one mock with its own state (special requests, cancelled bookings), shared by its four bindings.
 */
export { startMock, type MockOptions, type RunningMock } from './server.js';
export { TransientFaults, isWriteRequest, gatewayPage, type TransientMode, type TransientFault } from './transient.js';
export {
  createHandlers,
  resultOptions,
  DEFAULT_USER,
  DEFAULT_PASSWORD,
  DEFAULT_OTHER_USER,
  DEFAULT_OTHER_PASSWORD,
  MAX_BODY_BYTES,
  type MockHandlerOptions,
  type ResultStyle,
} from './handlers.js';
export {
  serializeElement,
  serializeResult,
  validSimple,
  SerializeError,
  type SerializeOptions,
  type Value,
  type DataObject,
  type AnyContent,
  type AnyElement,
  type SimpleValue,
} from './serialize.js';
export {
  resolveOperation,
  adjustForBinding,
  reportsErrorsInBand,
  AUTH_FAILED,
  type Outcome,
  type Credentials,
} from './data.js';
export { languageOf } from './generator-support.js';
export { mockMain, parseMockFlags } from './main.js';
export { FAULTS } from './faults.js';
export {
  faultNamed,
  resolveFaults,
  faultBindings,
  faultApplies,
  listFaults,
  UnknownFaultError,
} from './fault-lookup.js';
export type {
  Fault,
  FaultHooks,
  FaultContext,
  StateFaultContext,
  FaultCategory,
  MockResponse,
  ResponseKind,
} from './fault-types.js';
export { varyData, presentationFor, relexical, type Presentation } from './vary.js';
export {
  MockState,
  touchesState,
  BOOKING_ALREADY_CANCELLED,
  TRANSFER_ALREADY_CANCELLED,
  ALREADY_CANCELLED_CODE,
  type BookingStore,
  type CancelledTransfer,
} from './state.js';
export {
  DEFAULT_NAMESPACES,
  DEFAULT_PATHS,
  OPERATIONS,
  BINDINGS,
  type Namespaces,
  type ServicePaths,
  type BindingId,
} from '../contract/catalogue.js';
