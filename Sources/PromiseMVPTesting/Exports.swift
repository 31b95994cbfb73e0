// A test target that imports PromiseMVPTesting can use promises and services without importing
// them too: the promise type and the service errors its helpers speak of come with it.
@_exported public import Promises
@_exported public import Services
