// The loopback server and the REST collection behind it live apart, in PromiseMVPTestServer (no
// test framework in it, so an executable can link it); code that imports PromiseMVPTesting sees
// them as before.
@_exported public import PromiseMVPTestServer
// A test target that imports PromiseMVPTesting can use promises and services without importing
// them too: the promise type and the service errors its helpers speak of come with it.
@_exported public import Promises
@_exported public import Services
