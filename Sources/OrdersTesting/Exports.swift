// An orders test target imports this one module: the feature, its sample orders, the loopback
// shop, and the promise and services helpers of PromiseMVPTesting.
@_exported public import Orders
@_exported public import PromiseMVPTesting
