import DataStoreCore

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

/// A `DataStoreError.storageUnavailable` for a failed system call.
func systemError(_ operation: String, path: String) -> DataStoreError {
    .storageUnavailable(path: path, reason: "\(operation) failed: \(errnoDescription()) (errno \(errno))")
}

/// Retries a system call interrupted by a signal.
func retryingOnInterrupt(_ call: () -> Int32) -> Int32 {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
