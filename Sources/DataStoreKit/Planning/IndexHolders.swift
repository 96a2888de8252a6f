import DataStoreCore

/// The models holding one value of an indexed attribute.
///
/// Usually one: every value of a `.unique` attribute has a single holder. That one is kept inline, in the value
/// index's own storage, instead of in a set of its own: an indexed lookup then reads one object less, which
/// was a cache miss per lookup in a large store.
struct IndexHolders: Sequence, Sendable {
    private enum Storage: Sendable {
        case none
        case one(PersistentIdentifier)
        case many(Set<PersistentIdentifier>)
    }

    private var storage = Storage.none

    /// No holders.
    init() {}

    /// The holders in `set`.
    init(_ set: Set<PersistentIdentifier>) {
        switch set.count {
        case 0: storage = .none
        case 1: storage = .one(set.first!)
        default: storage = .many(set)
        }
    }

    /// The number of holders.
    var count: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .many(let set): set.count
        }
    }

    /// The number of holders: a sequence's hint for reserving room.
    var underestimatedCount: Int { count }

    /// Whether there is no holder.
    var isEmpty: Bool { count == 0 }

    /// Adds a holder; adding one already there changes nothing.
    mutating func insert(_ id: PersistentIdentifier) {
        switch storage {
        case .none: storage = .one(id)
        case .one(let held): if held != id { storage = .many([held, id]) }
        case .many(var set):
            storage = .none  // so that `set` is the only reference and grows in place
            set.insert(id)
            storage = .many(set)
        }
    }

    /// Removes a holder, if it is one.
    mutating func remove(_ id: PersistentIdentifier) {
        switch storage {
        case .none: break
        case .one(let held): if held == id { storage = .none }
        case .many(var set):
            storage = .none
            set.remove(id)
            self = IndexHolders(set)
        }
    }

    /// Iterates over the holders, in no particular order.
    struct Iterator: IteratorProtocol {
        fileprivate var single: PersistentIdentifier?
        fileprivate var rest: Set<PersistentIdentifier>.Iterator?

        /// The next holder.
        mutating func next() -> PersistentIdentifier? {
            if let single {
                self.single = nil
                return single
            }
            return rest?.next()
        }
    }

    /// Iterates over the holders.
    func makeIterator() -> Iterator {
        switch storage {
        case .none: Iterator()
        case .one(let id): Iterator(single: id)
        case .many(let set): Iterator(rest: set.makeIterator())
        }
    }
}
