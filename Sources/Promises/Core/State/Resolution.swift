/// How a promise settled, as its handlers see it.
///
/// `handled` travels with a rejection so that an error a `catch` already dealt with is not reported
/// again by the promises it is forwarded to.
@usableFromInline
enum Resolution<Value: Sendable>: Sendable {
    case fulfilled(Value)
    case rejected(any Error, handled: Bool)

    @inlinable
    init(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value): self = .fulfilled(value)
        case .failure(let error): self = .rejected(error, handled: false)
        }
    }

    /// The value `body` returns, or the error it throws.
    @inlinable
    init(catching body: () throws -> Value) {
        do {
            self = .fulfilled(try body())
        } catch {
            self = .rejected(error, handled: false)
        }
    }

    @inlinable
    var result: Result<Value, any Error> {
        switch self {
        case .fulfilled(let value): .success(value)
        case .rejected(let error, _): .failure(error)
        }
    }
}
