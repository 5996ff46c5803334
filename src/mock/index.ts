/** The reference mock: public API. */
export { startMock, type MockOptions, type RunningMock } from './server.js';
export {
  createHandlers, resultOptions, DEFAULT_USER, DEFAULT_PASSWORD, MAX_BODY_BYTES,
  type MockHandlerOptions, type ResultStyle,
} from './handlers.js';
export {
  serializeElement, serializeResult, validSimple, SerializeError,
  type SerializeOptions, type Value, type DataObject, type AnyContent, type AnyElement, type SimpleValue,
} from './serialize.js';
export { resolveOperation, adjustForBinding, reportsErrorsInBand, languageOf, AUTH_FAILED, type Outcome, type Credentials } from './data.js';
export { mockMain, parseMockFlags } from './main.js';
export {
  FAULTS, findFault, resolveFaults, faultBindings, faultApplies, listFaults, UnknownFaultError,
  type Fault, type FaultHooks, type FaultContext, type FaultCategory, type MockResponse, type ResponseKind,
} from './faults.js';
export { varyData, presentationFor, relexical, type Presentation } from './vary.js';
