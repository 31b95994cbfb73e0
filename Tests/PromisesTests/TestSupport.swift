import Dispatch
import Foundation

@testable import Promises

/// Errors the tests reject with, so that an assertion can tell them apart.
enum TestError: Error, Equatable {
    case boom
    case other
}

/// Records events from any thread, in the order they happen.
struct Recorder<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var all: [Element] {
        storage.withLock { $0 }
    }
}

/// Counts events from any thread.
struct Counter: Sendable {
    private let count = Locked(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }

    var value: Int {
        count.withLock { $0 }
    }
}

/// A serial queue that a handler can check it runs on.
struct MarkedQueue: Sendable {
    private static let key = DispatchSpecificKey<String>()
    let queue: DispatchQueue
    let label: String

    init(_ label: String) {
        self.label = label
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.key, value: label)
    }

    /// Whether the caller is running on this queue.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: Self.key) == label
    }
}

extension Result {
    /// The error of a failure, for assertions.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The outcome of awaiting a promise, so a test can assert on an error as easily as on a value.
///
/// A promise that never settles gives `PromiseError.timedOut` after 10 seconds, so that the test
/// fails instead of hanging.
func outcome<Value>(of promise: Promise<Value>) async -> Result<Value, any Error> {
    do {
        return .success(try await promise.timeout(seconds: 10).value)
    } catch {
        return .failure(error)
    }
}

/// Runs `body` on a new thread with a 512 KiB stack, a GCD worker thread's size on Apple
/// platforms, and waits until it returned.
func onSmallStack(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            body()
            done.resume()
        }
        thread.stackSize = 512 * 1024
        thread.start()
    }
}

/// A type only the dropped-chain test makes, so its report can be told from others.
struct DroppedMarker: Sendable {}

extension Result {
    /// The value of a success, for assertions.
    var success: Success? {
        try? get()
    }
}
