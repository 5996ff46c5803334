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
