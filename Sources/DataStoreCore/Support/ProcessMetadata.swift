import Foundation

/// The current program's bundle identifier and process identifier, as recorded in history.
public struct ProcessMetadata: Hashable, Sendable {
    /// The bundle identifier: `Bundle.main.bundleIdentifier` where there is one (Apple platforms), otherwise
    /// the executable's name.
    public var bundleIdentifier: String
    /// The process identifier, in decimal.
    public var processIdentifier: String

    /// Creates metadata with explicit values.
    public init(bundleIdentifier: String, processIdentifier: String) {
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
    }

    /// The metadata of the running process.
    public static let current: ProcessMetadata = {
        let info = ProcessInfo.processInfo
        let bundle = Bundle.main.bundleIdentifier ?? info.processName
        return ProcessMetadata(bundleIdentifier: bundle, processIdentifier: String(info.processIdentifier))
    }()
}
