// A test target that imports PromiseMVPTesting can write the seed's tests without importing
// anything else of ours: the promise type, the service errors and the features come with it.
@_exported public import Melodies
@_exported public import Orders
@_exported public import Promises
@_exported public import Services
