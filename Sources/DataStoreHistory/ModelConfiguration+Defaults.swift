public import DataStoreCore
public import DataStoreModels
public import Foundation
import InMemoryStorage
import JSONFileStorage

extension ModelConfiguration {
    /// Where a group of processes (an app and its widget) keep a store they share, as SwiftData's
    /// `ModelConfiguration.GroupContainer` does.
    public enum GroupContainer: Sendable, Hashable {
        /// The program's own data directory (see ``ModelConfiguration/defaultDirectory(program:)``).
        case automatic
        /// A directory shared by every program that names the same group: `<data home>/<identifier>`.
        case identifier(String)
        /// Not shared: the program's own data directory.
        case none
    }

    /// A store configured the way SwiftData's `ModelConfiguration` is: durable by default, in memory on
    /// request, read-only when saving is not allowed.
    ///
    /// - Parameters:
    ///   - name: The store's name (and identifier). When `nil`: with a `url`, the name the store at `url`
    ///     records, or else the URL's last component without its extension (`trip.store` → `trip`), so that two
    ///     unnamed configurations at two URLs are two stores; without one, `"default"`, as in SwiftData.
    ///   - schema: The entities this store holds; `nil` for every entity no other configuration claims.
    ///   - isStoredInMemoryOnly: An ``InMemoryDataStore`` that lives as long as the container.
    ///   - allowsSave: `false` opens the store read-only: saves throw `readOnlyStore`, and a store that does
    ///     not exist yet throws `storageUnavailable` instead of being created.
    ///   - groupContainer: Where to keep a store several programs share.
    ///   - url: The store's directory. Unlike SwiftData's single SQLite file, a JSON file store is a directory
    ///     of files; when `nil`, `<data directory>/<name>.store`.
    public init(
        _ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false,
        allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic, url: URL? = nil
    ) {
        let storeName = name ?? url.map(Self.storeName(at:)) ?? "default"
        let types = schema.map { $0.entities.map(\.name) }
        if isStoredInMemoryOnly {
            self.init(InMemoryStoreConfiguration(name: storeName), forEntityNames: types)
            return
        }
        let directory =
            url
            ?? Self.dataDirectory(for: groupContainer).appendingPathComponent(
                "\(storeName).store", isDirectory: true)
        self.init(
            JSONFileStoreConfiguration(name: storeName, directory: directory, isReadOnly: !allowsSave),
            forEntityNames: types)
    }

    /// SwiftData's `ModelConfiguration(_:schema:url:allowsSave:)`: a durable store at `url` (a directory)
    /// holding the schema's entities, or every entity no other configuration claims. Without a name, the store
    /// is named as the other initializer describes: after the store at `url`, or after `url`.
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true) {
        self.init(name, schema: schema, isStoredInMemoryOnly: false, allowsSave: allowsSave, url: url)
    }

    /// The name of an unnamed store at `url`: the one its files record (a store made before names were
    /// derived was named `default`), or the URL's last component without its extension.
    static func storeName(at url: URL) -> String {
        if let recorded = try? JSONFileDataStore.describe(directory: url) { return recorded.name }
        let derived = url.deletingPathExtension().lastPathComponent
        return derived.isEmpty || derived == "/" ? "default" : derived
    }

    /// The directory default containers keep their stores in:
    ///
    /// - `DATASTOREHISTORY_DATA_HOME`, when set (tests, and apps that want another place);
    /// - on Linux and other non-Apple systems, `$XDG_DATA_HOME/<program>`, or `~/.local/share/<program>`;
    /// - on Apple platforms, `Application Support/<program>` in the user's library.
    ///
    /// `<program>` is the executable's name unless `program` is given.
    public static func defaultDirectory(program: String = ProcessInfo.processInfo.processName) -> URL {
        dataHome().appendingPathComponent(program, isDirectory: true)
    }

    static func dataDirectory(for group: GroupContainer) -> URL {
        switch group {
        case .automatic, .none: defaultDirectory()
        case .identifier(let identifier): dataHome().appendingPathComponent(identifier, isDirectory: true)
        }
    }

    /// The per-user data directory that program and group directories live in.
    static func dataHome() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let override = environment["DATASTOREHISTORY_DATA_HOME"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        #if canImport(Darwin)
            if let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)
                .first
            {
                return support
            }
        #endif
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/share", isDirectory: true)
    }
}
