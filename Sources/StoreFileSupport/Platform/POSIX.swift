import DataStoreCore
import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text of the current `errno`, for messages.
func errnoDescription() -> String {
    String(cString: strerror(errno))
}

/// A `DataStoreError.storageUnavailable` for a failed system call, carrying the `POSIXError` (so a caller can
/// match `ENOSPC` or `EACCES`) as its underlying error.
func systemError(_ operation: String, path: String) -> DataStoreError {
    let code = errno
    return .storageUnavailable(
        path: path, reason: "\(operation) failed: \(errnoDescription()) (errno \(code))",
        underlyingError: POSIXErrorCode(rawValue: code).map { POSIXError($0) })
}

/// Retries a system call interrupted by a signal.
func retryingOnInterrupt(_ call: () -> Int32) -> Int32 {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
