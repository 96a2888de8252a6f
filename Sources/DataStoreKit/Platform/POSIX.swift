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

extension DataStoreError {
    /// Whether a system call failed for want of space: the device is full (`ENOSPC`) or the user's quota is
    /// spent (`EDQUOT`). A smaller write may still succeed.
    var isOutOfSpace: Bool {
        guard code == .storageUnavailable, let posix = underlyingError as? POSIXError else { return false }
        return posix.code == .ENOSPC || posix.code == .EDQUOT
    }
}
