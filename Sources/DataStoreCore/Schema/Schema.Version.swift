extension Schema {
    /// A schema's version identifier, as SwiftData's `Schema.Version(1, 0, 0)`: what a `VersionedSchema`
    /// declares and what a store records beside its schema, so that a migration plan knows where to start.
    public struct Version: Hashable, Comparable, Codable, Sendable, LosslessStringConvertible {
        /// The major version.
        public var major: Int
        /// The minor version.
        public var minor: Int
        /// The patch version.
        public var patch: Int

        /// Creates `major.minor.patch`.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// Parses `"1.2.3"`; `nil` for anything else.
        public init?(_ description: String) {
            let parts = description.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 3, let major = parts[0], let minor = parts[1], let patch = parts[2],
                major >= 0, minor >= 0, patch >= 0
            else { return nil }
            self.init(major, minor, patch)
        }

        /// `"major.minor.patch"`.
        public var description: String { "\(major).\(minor).\(patch)" }

        /// Orders by major, then minor, then patch.
        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        /// Decodes `"1.2.3"`.
        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let version = Version(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a version"))
            }
            self = version
        }

        /// Encodes `"1.2.3"`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }
}
