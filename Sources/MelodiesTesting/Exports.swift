// A melodies test target imports this one module: the feature, its doubles, and the promise and
// services helpers of PromiseMVPTesting.
@_exported public import Melodies
@_exported public import PromiseMVPTesting
