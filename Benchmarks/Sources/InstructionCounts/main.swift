import Dispatch
import Foundation
import Promises

// One scenario of the promise benchmarks, run once, for valgrind's callgrind to count its
// instructions (`bash Benchmarks/count`): counts repeat where wall time on a shared machine does
// not. Usage: InstructionCounts SCENARIO N, with SCENARIO one of chains-promise,
// chains-callbacks, chain-after-chain-promise, chain-after-chain-callbacks, when-promise,
// pending-promise, when-callbacks; N chains of ten steps, or N elements.

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count >= 0, count == target else {
    print(
        "usage: InstructionCounts chains-promise|chains-callbacks|chain-after-chain-promise"
            + "|chain-after-chain-callbacks|when-promise|pending-promise|when-callbacks N"
    )
    exit(2)
}
start(arguments[1])
if target > 0 { done.wait() }
